import {
  isDetached,
  reportedHash,
  SideEffect,
  workflowBranch,
  workflowPlace,
  type WorkflowState,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
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
 * another branch that still exists is left for it when a workflow of this branch is here, or when this branch does not
 * hold its work (`workHere`: without one of this branch, a workflow whose commits this branch holds, one made from its
 * branch or merged with it, or whose agent went to this branch since its place was seen, goes on here). A branch since
 * deleted, a detached HEAD, a place not known: not away. One read of the branch checked out, then git (and the
 * records) only for the workflows of other branches.
 */
export async function branchStanding(
  store: Store,
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
    if (
      !onBranch.length &&
      ((await workHere(git, worktree, w, checkedOut)) ||
        (await wentThere(store, git, worktree, w, checkedOut)))
    )
      continue;
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
 * Whether the branch checked out holds a workflow's work: it was last seen on that branch, or its branch moved on
 * while it went (it began at another commit than the one last seen there) and that commit is in the history checked
 * out (a branch made from it, or merged with it). A workflow whose branch did not move holds nothing another branch
 * can carry (its work, if any, is uncommitted: stashed, or left on its branch). True when that cannot be told.
 */
export async function workHere(
  git: GitPort,
  worktree: string,
  w: WorkflowState,
  checkedOut: string | null,
): Promise<boolean> {
  const place = workflowPlace(w);
  if (!place || !checkedOut || place.branch === checkedOut || !place.commit) return true;
  if (w.git_start?.commit && w.git_start.commit === place.commit) return false;
  return (await git.isAncestor(worktree, place.commit)) !== false;
}

/**
 * Whether the workflow's agent went to the branch checked out after its place was last seen (a turn cut off before
 * its end, so no snapshot saw it there): its recorded work since made that branch (`git switch -c`, `git checkout
 * -b`), or holds a commit that the history checked out has.
 */
async function wentThere(
  store: Store,
  git: GitPort,
  worktree: string,
  w: WorkflowState,
  checkedOut: string,
): Promise<boolean> {
  const seen = Date.parse(w.last_snapshot?.branch_seen_at ?? w.last_snapshot?.created_at ?? w.created_at);
  const since = (await store.listRecords(w.id, 'side_effect'))
    .map((r) => SideEffect.safeParse(r.data))
    .flatMap((p) => (p.success && Date.parse(p.data.timestamp) > seen ? [p.data] : []));
  if (since.some((e) => e.kind === 'other' && e.summary === `created the branch ${checkedOut}`)) return true;
  for (const hash of since.map(reportedHash))
    if (hash && (await git.isAncestor(worktree, hash)) === true) return true;
  return false;
}
