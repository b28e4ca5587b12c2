import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The git worktree holding `dir` (the nearest folder with a `.git` entry: a directory, or a file in a linked
 * worktree), found without running git; null outside a repository.
 */
export function findWorktree(dir: string): string | null {
  let cur: string;
  try {
    cur = realpathSync(dir);
  } catch {
    return null;
  }
  for (;;) {
    if (existsSync(join(cur, '.git'))) return cur;
    const up = dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
}
