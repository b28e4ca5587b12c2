import { closeSync, openSync, readSync } from 'node:fs';

/** The bytes of a file from `from` to `to`, as text (fewer when the file is shorter). */
export function fileSlice(path: string, from: number, to: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.max(0, to - from));
    const n = readSync(fd, buf, 0, buf.length, from);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
