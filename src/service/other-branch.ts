import { isDetached, workflowBranch, workflowPlace, type WorkflowState } from '../core/index.js';
import type { GitPort } from './ports.js';

/** A workflow left for the branch its work is on, while the worktree has another one checked out. */
export interface OnOtherBranch {
  workflow_id: string;
  /** The user's request it followed (its issue), else its title. */
  title: string;
  status: WorkflowState['status'];
  /** The branch its work is on. */
  branch: string;
  /** The branch checked out now. */
  checked_out: string;
}

/** Where a worktree's open workflows stand against the branch checked out. */
export interface BranchStanding {
  /** The branch checked out (null: a detached HEAD, or not known). */
  checkedOut: string | null;
  /** Those whose work was last seen on the branch checked out: a new conversation here goes on with one of them. */
  onBranch: WorkflowState[];
  /** Those left for the other branches their work is on. */
  away: OnOtherBranch[];
}

/**
 * Which of a worktree's open workflows are the work of the branch checked out (`workflowPlace`). One last seen on
 * another branch that still exists is left for it when a workflow of this branch is here, or when the commit it saw
 * there is not in the history checked out (without one of this branch, a workflow whose work this branch holds, one
 * made from it or merged with it, goes on here). A branch since deleted, a detached HEAD, a place not known: not away.
 * One read of the branch checked out, then git only for the workflows of other branches.
 */
export async function branchStanding(
  git: GitPort,
  worktree: string,
  open: readonly WorkflowState[],
): Promise<BranchStanding> {
  const branch = (await git.gitStart(worktree))?.branch;
  const checkedOut = branch && !isDetached(branch) ? branch : null;
  if (checkedOut === null) return { checkedOut, onBranch: [], away: [] };
  const onBranch = open.filter((w) => workflowBranch(w) === checkedOut);
  const away: OnOtherBranch[] = [];
  for (const w of open) {
    const place = workflowPlace(w);
    if (!place || place.branch === checkedOut) continue;
    if (!onBranch.length && (await workHere(git, worktree, w, checkedOut))) continue;
    if ((await git.hasBranch(worktree, place.branch)) !== true) continue;
    away.push({
      workflow_id: w.id,
      title: w.issue?.title ?? w.title,
      status: w.status,
      branch: place.branch,
      checked_out: checkedOut,
    });
  }
  return { checkedOut, onBranch, away };
}

/**
 * Whether the branch checked out holds a workflow's work: it was last seen on that branch, or the commit it saw on its
 * own is in the history checked out (a branch made from it, or merged with it); true when that cannot be told.
 */
export async function workHere(
  git: GitPort,
  worktree: string,
  w: WorkflowState,
  checkedOut: string | null,
): Promise<boolean> {
  const place = workflowPlace(w);
  if (!place || !checkedOut || place.branch === checkedOut || !place.commit) return true;
  return (await git.isAncestor(worktree, place.commit)) !== false;
}
