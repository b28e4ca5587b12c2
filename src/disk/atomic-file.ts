import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
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

/** Writes a file atomically: a temp file beside it, fsync, rename over the target, fsync the folder. */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.${++counter}.tmp`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(dir);
}

export const writeJsonAtomic = (path: string, value: unknown): void =>
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

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
