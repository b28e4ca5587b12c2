import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../core/index.js';

export const tokenPath = (home: string) => join(home, 'token');

/** Reads the token under BATON_HOME, or null when there is none yet. */
export function readToken(home: string): string | null {
  try {
    const token = readFileSync(tokenPath(home), 'utf8').trim();
    return token || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BatonError(
      'unavailable',
      `cannot read the token file ${tokenPath(home)}: ${(e as Error).message}`,
    );
  }
}

/**
 * The server's bearer token: created at first start (32 random bytes, base64url) in `$BATON_HOME/token` with
 * mode 0600, reused afterwards (a file left readable by others is narrowed back to 0600).
 */
export function ensureToken(home: string): string {
  const path = tokenPath(home);
  const existing = readToken(home);
  if (existing) {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return existing;
  }
  const token = randomBytes(32).toString('base64url');
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readToken(home) ?? token;
    throw new BatonError(
      'unavailable',
      `cannot create the token file ${path}: ${(e as Error).message}; set --home / BATON_HOME to a writable directory`,
    );
  }
  return token;
}

/** Compares in constant time (a wrong token of the right length tells nothing). */
export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
