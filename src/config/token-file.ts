import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BatonError } from '../core/index.js';
import { ensurePrivateDir, narrowToPrivate, PRIVATE_FILE_MODE } from '../storage/private-files.js';

/** The server's bearer token (`baton token`). */
export const tokenPath = (home: string) => join(home, 'token');
/** The executor daemon's token (`baton executor token`). */
export const executorTokenPath = (home: string) => join(home, 'executor-token');

/** Reads a token file, or null when there is none yet. */
export function readTokenFile(path: string): string | null {
  try {
    const token = readFileSync(path, 'utf8').trim();
    return token || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BatonError('unavailable', `cannot read the token file ${path}: ${(e as Error).message}`);
  }
}

/**
 * A token file: created at first use (32 random bytes, base64url) with mode 0600 in a 0700 directory, whatever
 * the umask; reused afterwards (a file left readable by others is narrowed back to 0600).
 */
export function ensureTokenFile(path: string): string {
  const existing = readTokenFile(path);
  if (existing) {
    narrowToPrivate(path);
    return existing;
  }
  const token = randomBytes(32).toString('base64url');
  try {
    ensurePrivateDir(dirname(path));
    writeFileSync(path, `${token}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    narrowToPrivate(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readTokenFile(path) ?? token;
    throw new BatonError(
      'unavailable',
      `cannot create the token file ${path}: ${(e as Error).message}; set --home / BATON_HOME to a writable directory`,
    );
  }
  return token;
}

/**
 * Replaces a token file with a new token (0600, renamed into place: a reader sees the old token or the new one, never
 * half of one). The new token.
 */
export function rotateTokenFile(path: string): string {
  const token = randomBytes(32).toString('base64url');
  const next = `${path}.${process.pid}.new`;
  try {
    ensurePrivateDir(dirname(path));
    writeFileSync(next, `${token}\n`, { mode: PRIVATE_FILE_MODE, flag: 'w' });
    narrowToPrivate(next);
    renameSync(next, path);
  } catch (e) {
    rmSync(next, { force: true }); // the token stays the old one: no half-written new one is left beside it
    throw new BatonError(
      'unavailable',
      `cannot write the token file ${path}: ${(e as Error).message}; set --home / BATON_HOME to a writable directory`,
    );
  }
  return token;
}

/**
 * The token in a file as it is now: read again when the file changes (a `baton token --rotate` while the server
 * runs), else the last one read (a file gone or unreadable keeps the token the server had: it never opens up).
 */
export function liveTokenFile(path: string, first: string): () => string {
  let token = first;
  let seen = stamp(path);
  return () => {
    const now = stamp(path);
    if (now !== null && now !== seen) {
      seen = now;
      try {
        token = readTokenFile(path) ?? token;
      } catch {
        // unreadable now: the last token stands
      }
    }
    return token;
  };
}

/** What tells a file changed: its change time, inode and size. */
function stamp(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.ctimeMs}:${st.ino}:${st.size}`;
  } catch {
    return null;
  }
}

/** Reads the server's token under BATON_HOME, or null when there is none yet. */
export const readToken = (home: string): string | null => readTokenFile(tokenPath(home));

/** The server's bearer token, `$BATON_HOME/token`, created at first start. */
export const ensureToken = (home: string): string => ensureTokenFile(tokenPath(home));

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Compares in constant time: both sides are hashed first, so not even the token's length leaks. */
export function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
