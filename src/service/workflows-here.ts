import { ownedBy, type WorkflowState } from '../core/index.js';
import type { Store, WorkflowFilter } from '../storage/store.js';
import type { GitPort } from './ports.js';
import { isOwner } from './their-checkout.js';

/** The workflows of a worktree that are the work of whoever works there now (`isOwner`), newest first. */
export async function workflowsHere(
  store: Store,
  git: GitPort,
  worktree: string,
  filter: Omit<WorkflowFilter, 'worktree' | 'limit'> = {},
): Promise<WorkflowState[]> {
  const [all, owner] = await Promise.all([store.listWorkflows({ ...filter, worktree }), git.owner(worktree)]);
  // git's mailmap is asked once for each other email (an owner whose email changed since: `isOwner`)
  const asked = new Map<string, Promise<boolean>>();
  const mapped = (w: WorkflowState) => {
    const key = w.owner ?? '';
    const known = asked.get(key) ?? isOwner(git, worktree, w, owner);
    asked.set(key, known);
    return known;
  };
  const mine = await Promise.all(all.map((w) => (ownedBy(w, owner) ? true : mapped(w))));
  return all.filter((_, i) => mine[i]);
}
