import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

let counter = 0;

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse to open or fsync a directory; the rename itself is still atomic.
  }
}

/** A file to write whole: its path and its text. */
export interface FileText {
  path: string;
  text: string;
}

/** Whether the file at `path` holds `text` already (false when it cannot be read). */
function holds(path: string, text: string): boolean {
  try {
    return readFileSync(path, 'utf8') === text;
  } catch {
    return false;
  }
}

/**
 * Writes files atomically, together: each to a temp file beside it (fsync), then each renamed over its target, then
 * each folder fsynced once (one sync for the files of a folder, not one per file). A file that holds its text
 * already is left as it is: no write, no sync. Each file is either its old or its new text after a crash; the files
 * are not replaced as one.
 */
export function writeFilesAtomic(files: readonly FileText[]): void {
  const changed = files.filter((f) => !holds(f.path, f.text));
  const written: { tmp: string; path: string }[] = [];
  try {
    for (const { path, text } of changed) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${++counter}.tmp`;
      written.push({ tmp, path });
      const fd = openSync(tmp, 'w');
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    while (written.length) {
      const { tmp, path } = written[0]!;
      renameSync(tmp, path);
      written.shift();
    }
  } finally {
    for (const { tmp } of written) rmSync(tmp, { force: true });
  }
  for (const dir of new Set(changed.map((f) => dirname(f.path)))) fsyncDir(dir);
}

/** Writes a file atomically: a temp file beside it, fsync, rename over the target, fsync the folder. */
export const writeFileAtomic = (path: string, text: string): void => writeFilesAtomic([{ path, text }]);

/** A JSON document as Baton writes it: indented, a newline at the end. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const writeJsonAtomic = (path: string, value: unknown): void => writeFileAtomic(path, jsonText(value));

/** Whether a file's last byte is not a newline (a line cut short by a crash or a truncation). */
function endsMidLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/**
 * Appends whole lines in one write (O_APPEND) and fsyncs. A line left unfinished by an earlier crash is closed
 * first, so the new lines never glue onto it.
 */
export function appendLines(path: string, lines: readonly string[]): void {
  if (!lines.length) return;
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+');
  try {
    const lead = endsMidLine(fd) ? '\n' : '';
    writeSync(fd, lead + lines.map((l) => `${l}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
