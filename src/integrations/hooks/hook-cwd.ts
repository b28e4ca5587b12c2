import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where a hook works: the payload's folder, or the nearest folder above it that still exists. */
export interface HookFolder {
  dir: string;
  /** The payload's folder when it does not exist (the agent deleted it, or it names another machine's path). */
  missing: string | null;
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The folder a hook's payload names, made usable: a relative path is taken from the hook's own directory (where the
 * agent starts it), and a folder that no longer exists (an agent that removed its build folder while standing in
 * it) gives way to the nearest folder above it that exists, so the repository that holds it is still found.
 */
export function hookFolder(cwd: string, processCwd: string): HookFolder {
  const wanted = resolve(processCwd, cwd);
  for (let d = wanted; ; d = dirname(d)) {
    if (isDir(d)) return { dir: d, missing: d === wanted ? null : wanted };
    if (dirname(d) === d) return { dir: processCwd, missing: wanted };
  }
}
