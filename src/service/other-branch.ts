import { branchChange, isDetached as detached, workSpanOf, type WorkflowState } from '../core/index.js';
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

/**
 * Where a workflow's work is when it is not what the worktree has checked out: its last snapshot (or its start) saw
 * another branch (`branchChange`), that branch still exists, and the commit seen there is not in the history checked
 * out now. A new conversation here is then other work: it is not handed this workflow, which waits for a session on
 * its branch. Null when the work is here (the same branch, a branch made from it, merged with it or renamed), on a
 * branch since deleted, or either side is a detached HEAD or not known (no commit seen: a repository without any).
 */
export async function onOtherBranch(git: GitPort, w: WorkflowState): Promise<OnOtherBranch | null> {
  const change = branchChange(w, await git.captureGitState(w.worktree, workSpanOf(w)));
  if (!change || detached(change.from) || detached(change.to)) return null;
  const seen = change.since === 'snapshot' ? w.last_snapshot?.commit : w.git_start?.commit;
  if (!seen || (await git.isAncestor(w.worktree, seen)) !== false) return null;
  if ((await git.hasBranch(w.worktree, change.from)) !== true) return null;
  return {
    workflow_id: w.id,
    title: w.issue?.title ?? w.title,
    status: w.status,
    branch: change.from,
    checked_out: change.to,
  };
}
