import type { GitCapture } from './schemas/git-state.js';
import type { BranchChange } from './schemas/snapshot.js';
import type { WorkflowState } from './schemas/state.js';

/** A branch as a person reads it: git's `(detached)` is no branch. */
const named = (branch: string) => (branch === '(detached)' || branch === 'HEAD' ? 'a detached HEAD' : branch);

/**
 * The branch the worktree is on now, when it is not the one the workflow's last snapshot saw (or, before any snapshot
 * or in a state from before snapshots kept their branch, the one it began on): someone checked another branch out
 * meanwhile, and the work done so far may not be on it. Null when it is the same, or either is not known.
 */
export function branchChange(s: WorkflowState, now: GitCapture | null): BranchChange | null {
  const to = now?.state?.branch;
  if (!to) return null;
  const snap = s.last_snapshot;
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
