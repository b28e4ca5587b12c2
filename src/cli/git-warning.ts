import { existsSync } from 'node:fs';
import { gitStart } from '../git/git.js';
import type { Io } from './output.js';

/**
 * Said once by `create` and `run` when the worktree is not a git repository: Baton works there, but what it keeps of
 * the code is git's (a checkpoint's commit, the branch and changes in the briefing), so that is what is lost. A
 * worktree not on this machine (a server elsewhere) is not judged from here.
 */
export async function warnWithoutGit(io: Io, worktree: string): Promise<void> {
  if (!existsSync(worktree) || (await gitStart(worktree)) !== null) return;
  io.err(
    `baton: warning: ${worktree} is not a git repository: Baton keeps the workflow's log, snapshots and briefing, but its checkpoints record no commit (none can put your files back) and the briefing has no branch, changes or commits; \`git init\` and a first commit before the work to have them`,
  );
}
