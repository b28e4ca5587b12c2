import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';

/**
 * Every worktree of the repository `root` belongs to, `root` among them (the main checkout and the linked ones, by
 * their real paths), as `git worktree list` has them: a bare repository's entry and a worktree whose folder is gone
 * are left out. Just `root` when git cannot list them (not a repository).
 */
export function repositoryWorktrees(root: string): string[] {
  let out: string;
  try {
    out = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: root, stdio: 'pipe' }).toString();
  } catch {
    return [root];
  }
  const found: string[] = [];
  // one worktree per record, its attributes a line each, records apart by an empty line (`-z` needs git 2.36)
  for (const record of out.split('\n\n')) {
    const fields = record.split('\n');
    const path = fields.find((f) => f.startsWith('worktree '))?.slice('worktree '.length);
    if (!path || fields.includes('bare') || !existsSync(path)) continue;
    found.push(realpathSync(path));
  }
  return found.includes(root) ? found : [root, ...found];
}

/** The other worktrees of the repository `root` belongs to (see `repositoryWorktrees`). */
export const otherWorktrees = (root: string): string[] => repositoryWorktrees(root).filter((w) => w !== root);
