import type { WorkflowState } from '../core/index.js';
import type { Store, WorkflowFilter } from '../storage/store.js';
import type { GitPort } from './ports.js';
import { ownerJudge } from './their-checkout.js';

/** The workflows of a worktree that are the work of whoever works there now (`isOwner`), newest first. */
export async function workflowsHere(
  store: Store,
  git: GitPort,
  worktree: string,
  filter: Omit<WorkflowFilter, 'worktree' | 'limit'> = {},
): Promise<WorkflowState[]> {
  const [all, owner] = await Promise.all([store.listWorkflows({ ...filter, worktree }), git.owner(worktree)]);
  const mine = await Promise.all(all.map(ownerJudge(git, worktree, owner)));
  return all.filter((_, i) => mine[i]);
}
