import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Where `bin` would run from: a path (absolute, or relative to `cwd`) as is, a bare name looked up on PATH. Null
 * when nothing executable is there: the agent cannot start, and the user is told before any task moves.
 */
export function findExecutable(bin: string, cwd: string, path = process.env.PATH ?? ''): string | null {
  const candidates =
    bin.includes('/') || isAbsolute(bin)
      ? [resolve(cwd, bin)]
      : path
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, bin));
  for (const c of candidates) {
    try {
      if (!statSync(c).isFile()) continue;
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // not here
    }
  }
  return null;
}
