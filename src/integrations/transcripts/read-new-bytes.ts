import { open } from 'node:fs/promises';
import { invalidInput } from '../../core/index.js';

export interface NewBytes {
  /** The complete lines after `from` (a last line still being written is left for the next read). */
  text: string;
  /** Where the next read starts: just after the last complete line read. */
  end: number;
  /** The file's size now. */
  size: number;
  /** The file is shorter than `from`: it was replaced, and is read again from the start. */
  restarted: boolean;
}

const chunk = 1 << 20;

/** A transcript file opened for reading, with its size; what is not a readable file is refused by name. */
async function openTranscript(path: string) {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const next =
      code === 'ENOENT'
        ? ': no such file; check the path (Claude Code keeps transcripts under ~/.claude/projects/, Codex under ~/.codex/sessions/)'
        : code === 'EACCES'
          ? ': permission denied; run as the user who owns it, or make it readable'
          : `: ${code ?? (e as Error).message}`;
    throw invalidInput(`cannot read the transcript ${path}${next}`);
  }
  const info = await handle.stat().catch(async (e: Error) => {
    await handle.close();
    throw e;
  });
  if (!info.isFile()) {
    await handle.close();
    throw invalidInput(`${path} is not a file: give the transcript's .jsonl file`);
  }
  return { handle, size: info.size };
}

/**
 * The first complete line of a file and those after it within `max` bytes: enough to tell which agent wrote it. A
 * first line longer than `max` (a pasted image) is read on to its end, up to `limit` bytes.
 */
export async function readFirstLines(path: string, max: number, limit = 64 << 20): Promise<string> {
  const { handle, size } = await openTranscript(path);
  try {
    const parts: Buffer[] = [];
    let read = 0;
    let whole = false;
    while (read < Math.min(size, limit) && !whole) {
      const buf = Buffer.alloc(Math.min(max, size - read));
      const { bytesRead } = await handle.read(buf, 0, buf.length, read);
      if (bytesRead === 0) break;
      parts.push(buf.subarray(0, bytesRead));
      read += bytesRead;
      // a whole line is in: enough (each part is looked at once, however long the first line)
      whole = buf.subarray(0, bytesRead).includes(0x0a);
    }
    const bytes = Buffer.concat(parts);
    return whole && read < size
      ? bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1).toString('utf8')
      : bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Reads what was appended to a file since byte `from`: only those bytes are read, so a re-import of a 50 MB
 * transcript with one new line reads one line. A final line without its newline is left for later unless it is
 * complete JSON (a finished file that does not end with a newline).
 */
export async function readNewBytes(path: string, from: number): Promise<NewBytes> {
  const { handle, size } = await openTranscript(path);
  try {
    const restarted = from > size;
    const start = restarted ? 0 : from;
    const parts: Buffer[] = [];
    for (let pos = start; pos < size;) {
      const buf = Buffer.alloc(Math.min(chunk, size - pos));
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      parts.push(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    const bytes = Buffer.concat(parts);
    let cut = bytes.lastIndexOf(0x0a) + 1;
    if (cut < bytes.length && completeJson(bytes.subarray(cut))) cut = bytes.length;
    return { text: bytes.subarray(0, cut).toString('utf8'), end: start + cut, size, restarted };
  } finally {
    await handle.close();
  }
}

function completeJson(tail: Buffer): boolean {
  try {
    JSON.parse(tail.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The complete lines just before byte `to` (at most `max` bytes of them): what an import of the next piece reads
 * for context only, so rules that look back across a turn (a correction answers the agent's last reply) see it.
 */
export async function readLinesBefore(
  path: string,
  to: number,
  max: number,
  maxLines: number,
): Promise<string> {
  if (to <= 0 || maxLines <= 0) return '';
  const handle = await open(path, 'r');
  try {
    const start = Math.max(0, to - max);
    const buf = Buffer.alloc(to - start);
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    const bytes = buf.subarray(0, bytesRead);
    // a read that starts inside a line drops that line's end
    let from = start === 0 ? 0 : bytes.indexOf(0x0a) + 1;
    if (from <= 0 && start > 0) return '';
    // the last `maxLines` lines only
    for (let n = 0, at = bytes.length - 2; at >= from; at--)
      if (bytes[at] === 0x0a && ++n === maxLines) {
        from = at + 1;
        break;
      }
    return bytes.subarray(from).toString('utf8');
  } finally {
    await handle.close();
  }
}
