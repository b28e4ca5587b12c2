import { isTerminal, workflowBranch, workflowStatuses, type WorkflowState } from '../core/index.js';
import { byIsoTime } from '../core/iso-order.js';
import type { Store } from '../storage/store.js';
import type { GitPort } from './ports.js';
import { ownerJudge } from './their-checkout.js';

/**
 * The commits a workflow's work moved its branch to, as it recorded them (its checkpoints, its latest snapshot): HEAD
 * at its start left out, which any clone of the repository holds.
 */
const workCommits = (w: WorkflowState): string[] => {
  const start = w.git_start?.commit;
  const seen = [...w.checkpoints.map((c) => c.commit), w.last_snapshot?.commit];
  return [...new Set(seen.filter((c): c is string => !!c && c !== start))];
};

/**
 * The incomplete workflow whose worktree is gone (`git worktree remove`, or its folder deleted) and whose work goes on
 * in `worktree`, which has its branch checked out: the newest of those last seen on `branch` whose commits this
 * repository holds (made in a worktree of it, not in another clone of the same history), of the same owner (`isOwner`:
 * an old email of theirs git's mailmap here maps to the one here is theirs too). Null when
 * none. A workflow that committed nothing cannot be told from another clone's, and is not taken.
 */
export async function workOfGoneWorktree(
  store: Store,
  git: GitPort,
  worktree: string,
  branch: string,
): Promise<WorkflowState | null> {
  const [open, owner] = await Promise.all([
    store.listWorkflows({ status: workflowStatuses.filter((s) => !isTerminal(s)) }),
    git.owner(worktree),
  ]);
  const candidates = open
    .filter((w) => w.worktree !== worktree && workflowBranch(w) === branch)
    .sort((a, b) => byIsoTime(b.updated_at, a.updated_at));
  const mine = ownerJudge(git, worktree, owner);
  for (const w of candidates) {
    const commits = workCommits(w);
    if (!commits.length || !(await git.worktreeGone(w.worktree)) || !(await mine(w))) continue;
    if ((await git.knownCommits(worktree, commits))?.length) return w;
  }
  return null;
}
