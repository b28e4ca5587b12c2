import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

export type FileRead =
  { ok: true; text: string } | { ok: false; reason: 'missing' | 'corrupt' | 'special'; message: string };

/** What a path that is not a regular file is, in words. */
export function specialKind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * Reads a regular file as UTF-8 without ever blocking on a special file: it is opened non-blocking (a FIFO with no
 * writer opens at once instead of waiting for one) and checked with fstat before anything is read.
 */
export function readRegularFile(path: string): FileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'missing', message: (e as Error).message };
    if (code === 'ENXIO') return { ok: false, reason: 'special', message: `${path} is a socket: skipped` };
    return { ok: false, reason: 'corrupt', message: (e as Error).message };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      return { ok: false, reason: 'special', message: `${path} is ${specialKind(st)}: skipped` };
    return { ok: true, text: readFileSync(fd, 'utf8') };
  } catch (e) {
    return { ok: false, reason: 'corrupt', message: (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

export type JsonRead =
  { ok: true; value: unknown } | { ok: false; reason: 'missing' | 'corrupt' | 'special'; message: string };

/** Reads a JSON file without throwing (or blocking on a FIFO): missing, corrupt and special files are told apart. */
export function readJsonFile(path: string): JsonRead {
  const file = readRegularFile(path);
  if (!file.ok) return file;
  try {
    return { ok: true, value: JSON.parse(file.text) as unknown };
  } catch (e) {
    return { ok: false, reason: 'corrupt', message: (e as Error).message };
  }
}
