import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Where a program would run from, or why it cannot: nothing by that name, or a file that may not be executed. */
export type ExecutableStanding = { path: string } | { missing: true } | { notExecutable: string };

/**
 * Where `bin` would run from: a path (absolute, or relative to `cwd`) as is, a bare name looked up on PATH. When
 * nothing executable is there, whether a file of that name was found without the right to run it (the first such),
 * so the user is told the real cause (`chmod +x`) before any task moves.
 */
export function executableStanding(
  bin: string,
  cwd: string,
  path = process.env.PATH ?? '',
): ExecutableStanding {
  const candidates =
    bin.includes('/') || isAbsolute(bin)
      ? [resolve(cwd, bin)]
      : path
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, bin));
  let notExecutable: string | null = null;
  for (const c of candidates) {
    try {
      if (!statSync(c).isFile()) continue;
    } catch {
      continue; // not here
    }
    try {
      accessSync(c, constants.X_OK);
      return { path: c };
    } catch {
      notExecutable ??= c;
    }
  }
  return notExecutable ? { notExecutable } : { missing: true };
}
