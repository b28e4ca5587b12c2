import type { GitCapture, GitState } from './schemas/git-state.js';
import { sameHash } from './short-hash.js';
import type { BranchChange } from './schemas/snapshot.js';
import type { WorkflowState } from './schemas/state.js';

/** Whether git's name for the branch means none: a detached HEAD. */
export const isDetached = (branch: string) => branch === '(detached)' || branch === 'HEAD';

/** A branch as a person reads it: git's `(detached)` is no branch. */
const named = (branch: string) => (isDetached(branch) ? 'a detached HEAD' : branch);

/**
 * The branch a workflow's work was last seen on and the commit seen there: its last snapshot's, else (before any, or
 * a snapshot of a detached HEAD) its start's; null when neither names a branch.
 */
export function workflowPlace(s: WorkflowState): { branch: string; commit: string | null } | null {
  const snap = s.last_snapshot;
  if (snap?.branch && !isDetached(snap.branch)) return { branch: snap.branch, commit: snap.commit ?? null };
  const start = s.git_start;
  return start?.branch && !isDetached(start.branch) ? { branch: start.branch, commit: start.commit } : null;
}

/** The branch a workflow's work was last seen on (`workflowPlace`); null when not known. */
export const workflowBranch = (s: WorkflowState): string | null => workflowPlace(s)?.branch ?? null;

/** Whether the commit `at` is in the history the capture reads: HEAD itself, or one of the workflow's commits on it. */
function carries(now: GitState, at: string): boolean {
  if (now.commit_at_snapshot && sameHash(now.commit_at_snapshot, at)) return true;
  return (now.work_commits?.listed ?? []).some((c) => !c.elsewhere && sameHash(c.hash, at));
}

/**
 * The branch the worktree is on now, when it is not the one the workflow's last snapshot saw (or, before any snapshot
 * or in a state from before snapshots kept their branch, the one it began on): someone checked another branch out
 * meanwhile, and the work done so far may not be on it. Null when it is the same, or either is not known, or when the
 * snapshot's HEAD is in the new branch's history: the work is on it (the branch was renamed, or made from the other).
 */
export function branchChange(s: WorkflowState, now: GitCapture | null): BranchChange | null {
  const to = now?.state?.branch;
  if (!to || !now?.state) return null;
  const snap = s.last_snapshot;
  if (snap?.branch && snap.branch !== to && snap.commit && carries(now.state, snap.commit)) return null;
  const before = snap?.branch
    ? { from: snap.branch, since: 'snapshot' as const, at: snap.created_at }
    : s.git_start?.branch
      ? { from: s.git_start.branch, since: 'start' as const, at: s.created_at }
      : null;
  return before && before.from !== to ? { ...before, to } : null;
}

/** The warning a briefing opens with when the branch changed (one wording, for the hooks and `baton resume`). */
export function branchChangeWarning(c: BranchChange): string {
  const [from, to] = [named(c.from), named(c.to)];
  const since =
    c.since === 'snapshot' ? `the snapshot${c.at ? ` of ${c.at}` : ''}` : `the workflow began (${c.at})`;
  return `branch changed from ${from} to ${to} since ${since}: work done on ${from} is not on ${to} unless merged; check which branch the work goes on`;
}
