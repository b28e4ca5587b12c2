import { branchChange } from './branch-change.js';
import { listTotals } from './fold/bounds.js';
import { usageOfTotals } from './fold/usage.js';
import { emptyTotals } from './schemas/records.js';
import { nextTask, taskCounts, taskUnderWay } from './task-graph.js';
import type { GitCapture, GitMark, GitState } from './schemas/git-state.js';
import type { SessionSnapshot } from './schemas/snapshot.js';
import type { WorkflowState } from './schemas/state.js';
import type { SessionInfo, SnapshotTrigger } from './schemas/workflow.js';

export interface SnapshotInput {
  id: string;
  trigger: SnapshotTrigger;
  reason: string | null;
  git: GitCapture;
  now: string;
  warnings?: string[];
  /**
   * The session the snapshot is of when it is not the open one (a session cut off after another conversation opened
   * and asked nothing): its number, and its usage from its totals (the state's gauge of the context is the open
   * session's, so none is said).
   */
  session?: SessionInfo;
}

/** Builds the SessionSnapshot of a workflow's state as it stands (the state after the last folded event). */
export function buildSnapshot(s: WorkflowState, input: SnapshotInput): SessionSnapshot {
  const counts = taskCounts(s.tasks);
  const current = taskUnderWay(s.tasks);
  const next = nextTask(s.tasks);
  const branch = branchChange(s, input.git);
  return {
    schema_version: 1,
    id: input.id,
    workflow_id: s.id,
    session_number: input.session?.number ?? Math.max(1, s.session_count),
    created_at: input.now,
    trigger: input.trigger,
    pause_reason: input.reason,
    through_seq: s.version,
    title: s.title,
    issue: s.issue,
    plan: s.plan,
    tasks: s.tasks,
    current_task_id: current?.id ?? null,
    next_task_id: next?.id ?? null,
    tasks_completed: counts.finished,
    tasks_remaining: counts.remaining,
    git_state: input.git.state,
    git_note: input.git.note,
    ...(branch ? { branch_changed: branch } : {}),
    decisions: s.recent_decisions,
    decisions_total: s.counts.decisions,
    errors: [...s.open_errors, ...s.recent_resolved_errors],
    errors_total: s.counts.errors,
    ...(listTotals(s).open_errors > s.open_errors.length
      ? { open_errors_more: listTotals(s).open_errors - s.open_errors.length }
      : {}),
    reviewer_feedback: s.open_feedback.length ? s.open_feedback : null,
    test_state: s.test_state,
    ci_state: s.ci_state ?? null,
    usage: input.session ? usageOfTotals(input.session.usage ?? emptyTotals()) : s.usage,
    recent_history: s.recent_history.map((h) => h.text),
    requests: s.recent_requests ?? [],
    ...(listTotals(s).requests > (s.recent_requests ?? []).length
      ? { requests_more: listTotals(s).requests - (s.recent_requests ?? []).length }
      : {}),
    ...(s.standing_requests?.length ? { standing_requests: s.standing_requests } : {}),
    side_effects: s.side_effects ?? [],
    summaries: s.summaries ?? { compaction: null, last_message: null },
    warnings: input.warnings ?? [],
    ...(s.turn_ended ? { turn_ended_at: s.turn_ended.at } : {}),
  };
}

/** The same snapshot with other task statuses (what a recovery option would hand over), derived fields redone. */
export function withTasks(snap: SessionSnapshot, tasks: SessionSnapshot['tasks']): SessionSnapshot {
  const counts = taskCounts(tasks);
  return {
    ...snap,
    tasks,
    current_task_id: taskUnderWay(tasks)?.id ?? null,
    next_task_id: nextTask(tasks)?.id ?? null,
    tasks_completed: counts.finished,
    tasks_remaining: counts.remaining,
  };
}

/**
 * Whether git is as the snapshot saw it: HEAD at the same commit on the same branch (a commit since, even one whose
 * tool call a crash cut off, makes the snapshot stale: its done list and Git State miss it), and the same files
 * uncommitted (a stash, a checkout of a file, a file written by hand: its Git State would name files that are not
 * so; more changes to the same files do not count: its diffstat may be behind), and the reported commits off HEAD's
 * history where they were (a branch holding one deleted since: its done list would name it). Without a capture now,
 * nothing says it moved.
 */
export function sameGit(snap: SessionSnapshot, now: GitCapture | null): boolean {
  const off = (g: GitState | null | undefined) => JSON.stringify(g?.off_head ?? []);
  return (
    sameGitAs(snap.git_state, now?.state ?? null) && (!now?.state || off(snap.git_state) === off(now.state))
  );
}

/** Whether git (`now`) is where a mark (a snapshot's git state, a turn's end) saw it: as `sameGit` says it. */
export function sameGitAs(was: GitMark | null | undefined, now: GitMark | null): boolean {
  if (!now) return true;
  return (
    (was?.commit_at_snapshot ?? null) === now.commit_at_snapshot &&
    // a branch checked out at the same commit: the briefing must say so (and name the branch)
    (!was || was.branch === now.branch) &&
    // (a snapshot from before the files were kept: only whether there were any)
    (!was ||
      (was.uncommitted_files && now.uncommitted_files
        ? sameFiles(was.uncommitted_files, now.uncommitted_files)
        : was.has_uncommitted_changes === now.has_uncommitted_changes))
  );
}

function sameFiles(a: readonly string[], b: readonly string[]): boolean {
  const [x, y] = [[...a].sort(), [...b].sort()];
  return x.length === y.length && x.every((f, i) => f === y[i]);
}
