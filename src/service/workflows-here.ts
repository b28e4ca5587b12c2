import { ownedBy, type WorkflowState } from '../core/index.js';
import type { Store, WorkflowFilter } from '../storage/store.js';
import type { GitPort } from './ports.js';

/** The workflows of a worktree that are the work of whoever works there now (`ownedBy`), newest first. */
export async function workflowsHere(
  store: Store,
  git: GitPort,
  worktree: string,
  filter: Omit<WorkflowFilter, 'worktree' | 'limit'> = {},
): Promise<WorkflowState[]> {
  const [all, owner] = await Promise.all([store.listWorkflows({ ...filter, worktree }), git.owner(worktree)]);
  return all.filter((w) => ownedBy(w, owner));
}
