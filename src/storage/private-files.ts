import { chmodSync, closeSync, fstatSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Baton's private files: `$BATON_HOME` (0700), the SQLite database with its `-wal`/`-shm` files and the token
 * files (0600). The modes are set explicitly, so they hold whatever the umask; an existing file of ours that is
 * readable by others is narrowed back (a file of another user is left alone: it is not ours to change).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const ownedByUs = (uid: number) => typeof process.getuid !== 'function' || uid === process.getuid();

/** Creates `dir` (and missing parents, with the usual modes) as 0700; an existing directory is left as it is. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw e;
  }
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Narrows an existing file of ours to 0600; a missing file is fine. */
export function narrowToPrivate(path: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (st.isFile() && (st.mode & 0o077) !== 0 && ownedByUs(st.uid)) chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Makes sure a SQLite database file exists with mode 0600 before SQLite opens it: SQLite creates the database
 * 0644 minus the umask, and gives its `-wal` and `-shm` files the database file's mode. Existing `-wal`/`-shm`
 * files are narrowed too. The directory is created 0700 when it is missing.
 */
export function preparePrivateDatabase(location: string): void {
  if (location === ':memory:' || location === '' || location.startsWith('file:')) return;
  ensurePrivateDir(dirname(location));
  const fd = openSync(location, 'a', PRIVATE_FILE_MODE);
  try {
    const st = fstatSync(fd);
    if ((st.mode & 0o077) !== 0 && ownedByUs(st.uid)) fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
  narrowToPrivate(`${location}-wal`);
  narrowToPrivate(`${location}-shm`);
}
