import type { GitCapture, GitState, WorkSpan } from './schemas/git-state.js';
import { reportedHash } from './context/done-commits.js';
import { sameHash } from './short-hash.js';
import type { BranchChange, SessionSnapshot } from './schemas/snapshot.js';
import type { WorkflowState } from './schemas/state.js';

/** Whether git's name for the branch means none: a detached HEAD. */
export const isDetached = (branch: string) => branch === '(detached)' || branch === 'HEAD';

/** A branch as a person reads it: git's `(detached)` is no branch. */
export const branchInWords = (branch: string) => (isDetached(branch) ? 'a detached HEAD' : branch);

/** What tells where a workflow's work is: where it began, and where its last snapshot put it. */
export type WorkflowPlaces = Pick<WorkflowState, 'git_start'> & {
  last_snapshot: Pick<NonNullable<WorkflowState['last_snapshot']>, 'branch' | 'commit'> | null;
};

/**
 * The branch a workflow's work was last seen on and the commit seen there: its last snapshot's place, else (before any,
 * or a snapshot of a detached HEAD) its start's; null when neither names a branch. A snapshot taken on a branch that
 * does not hold the work (`branch_changed`) keeps the place before it (see the fold of `snapshot.taken`).
 */
export function workflowPlace(s: WorkflowPlaces): { branch: string; commit: string | null } | null {
  const snap = s.last_snapshot;
  if (snap?.branch && !isDetached(snap.branch)) return { branch: snap.branch, commit: snap.commit ?? null };
  const start = s.git_start;
  return start?.branch && !isDetached(start.branch) ? { branch: start.branch, commit: start.commit } : null;
}

/**
 * Where the work is as of a snapshot (what the state's `last_snapshot` keeps): the branch and HEAD it saw, unless that
 * is a detached HEAD or a branch that does not hold the work seen before (`branch_changed`: a checkout of other work,
 * a conversation resumed on another branch), when the place before stays.
 */
export function snapshotPlace(
  s: WorkflowState,
  snap: SessionSnapshot,
): Pick<NonNullable<WorkflowState['last_snapshot']>, 'branch' | 'commit' | 'branch_seen_at'> {
  const seen = snap.git_state;
  if (seen?.branch && !isDetached(seen.branch) && !snap.branch_changed)
    return { branch: seen.branch, commit: seen.commit_at_snapshot ?? null, branch_seen_at: snap.created_at };
  // the place before: the last snapshot's, else the start's
  const before = s.last_snapshot;
  if (before?.branch)
    return {
      branch: before.branch,
      commit: before.commit ?? null,
      branch_seen_at: before.branch_seen_at ?? before.created_at,
    };
  const start = s.git_start;
  return start?.branch && !isDetached(start.branch)
    ? { branch: start.branch, commit: start.commit, branch_seen_at: s.created_at }
    : { branch: null, commit: null };
}

/**
 * The work span of a workflow, for a git capture. Its place is where its work was last seen (`workflowPlace`), else a
 * detached HEAD it began on (a Codex app worktree starts detached): a branch made from it holds that start, and git
 * is asked so (`place_held`), where only a commit of the agent's on the branch would otherwise say it. The commits its
 * transcripts reported go with it, so git says which of them HEAD's history does not hold (`off_head`).
 */
export const workSpanOf = (
  s: WorkflowPlaces & Pick<WorkflowState, 'side_effects'> & { created_at: string; ended_at: string | null },
): WorkSpan => {
  const start = s.git_start;
  const place =
    workflowPlace(s) ??
    (start?.branch && start.commit ? { branch: start.branch, commit: start.commit } : null);
  // the commits the transcripts reported: git says which HEAD no longer holds, and where they are (`off_head`)
  const reported = (s.side_effects ?? []).flatMap((e) => {
    const hash = reportedHash(e);
    return hash ? [{ hash, at: e.timestamp }] : [];
  });
  return {
    commit: s.git_start?.commit ?? null,
    ...(s.git_start?.dirty ? { dirty: s.git_start.dirty } : {}),
    at: s.created_at,
    until: s.ended_at,
    ...(place?.commit ? { place: { branch: place.branch, commit: place.commit } } : {}),
    ...(reported.length ? { reported } : {}),
  };
};

/** The branch a workflow's work was last seen on (`workflowPlace`); null when not known. */
export const workflowBranch = (s: WorkflowState): string | null => workflowPlace(s)?.branch ?? null;

/**
 * The branch of a workflow's worktree for its sessions' status: the branch its work was last seen on
 * (`workflowBranch`: a Codex app worktree begun detached and moved to a branch is on that branch), else the one it
 * began on, git's `(detached)` for a detached HEAD; null without git.
 */
export const worktreeBranch = (s: WorkflowState): string | null =>
  workflowBranch(s) ?? s.git_start?.branch ?? null;

/**
 * Whether the commit `at` is in the history the capture reads: as git answered it (`place_held`), else HEAD itself or
 * one of the workflow's commits on it.
 */
function carries(now: GitState, at: string): boolean {
  if (now.place_held && sameHash(now.place_held.commit, at)) return now.place_held.held;
  if (now.commit_at_snapshot && sameHash(now.commit_at_snapshot, at)) return true;
  return (now.work_commits?.listed ?? []).some((c) => !c.elsewhere && sameHash(c.hash, at));
}

/**
 * Whether the workflow's agent committed on the history checked out since its work was last seen elsewhere (`since`):
 * its work goes on here (a checkout the conversation made to work on another branch).
 */
function committedHere(s: WorkflowState, now: GitState, since: string): boolean {
  const listed = now.work_commits?.listed ?? [];
  return (s.side_effects ?? []).some((e) => {
    const hash = reportedHash(e);
    return (
      hash !== null &&
      Date.parse(e.timestamp) > Date.parse(since) &&
      listed.some((c) => sameHash(c.hash, hash))
    );
  });
}

/**
 * The branch the worktree is on now, when it is not the one the workflow's work is on (`workflowPlace`: its last
 * snapshot's place or, before any snapshot or in a state from before snapshots kept their branch, the one it began on):
 * someone checked another branch out meanwhile, and the work done so far may not be on it. Null when it is the same,
 * or either is not known, or when the work is on the new branch: its history holds the commit last seen (the branch
 * was renamed, or made from the other), or the workflow's agent committed on it since.
 */
export function branchChange(s: WorkflowState, now: GitCapture | null): BranchChange | null {
  const to = now?.state?.branch;
  if (!to || !now?.state) return null;
  const snap = s.last_snapshot;
  // where the work was last seen: the last snapshot's place, else where the workflow began
  const before = snap?.branch
    ? {
        from: snap.branch,
        commit: snap.commit ?? null,
        since: 'snapshot' as const,
        at: snap.branch_seen_at ?? snap.created_at,
      }
    : s.git_start?.branch
      ? { from: s.git_start.branch, commit: s.git_start.commit, since: 'start' as const, at: s.created_at }
      : null;
  if (!before || before.from === to) return null;
  // the work is on the branch checked out: its history holds the commit last seen, or the agent committed on it since
  if ((before.commit && carries(now.state, before.commit)) || committedHere(s, now.state, before.at))
    return null;
  return { from: before.from, to, since: before.since, at: before.at };
}

/** The warning a briefing opens with when the branch changed (one wording, for the hooks and `baton resume`). */
export function branchChangeWarning(c: BranchChange): string {
  const [from, to] = [branchInWords(c.from), branchInWords(c.to)];
  const since =
    c.since === 'snapshot' ? `the snapshot${c.at ? ` of ${c.at}` : ''}` : `the workflow began (${c.at})`;
  return `branch changed from ${from} to ${to} since ${since}: work done on ${from} is not on ${to} unless merged; check which branch the work goes on`;
}
