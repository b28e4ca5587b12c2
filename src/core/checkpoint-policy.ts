import type { GitState } from './schemas/git-state.js';
import type { WorkflowState } from './schemas/state.js';

export interface CheckpointDecision {
  due: boolean;
  /** Why (not): shown in the hook's note and `baton doctor`. */
  reason: string;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** What changed in the repository between two captures: a commit, or the files changed and their diff size. */
export function gitWork(before: GitState | null, now: GitState | null): string | null {
  if (!now) return null;
  if (!before) {
    if (now.commit_at_snapshot !== now.commit_at_workflow_start) return 'new commits';
    // the files changed since the workflow began: not those it found changed and left as they were
    return now.files_modified.length ? 'files changed' : null;
  }
  if (now.commit_at_snapshot !== before.commit_at_snapshot) return 'a commit';
  if (
    !sameList(now.files_modified, before.files_modified) ||
    now.has_uncommitted_changes !== before.has_uncommitted_changes ||
    now.uncommitted_summary !== before.uncommitted_summary
  )
    return 'files changed';
  return null;
}

/**
 * A checkpoint is taken after real work (a task added or moved, a side effect, a commit, files changed) and at
 * most every `intervalMs`: a Stop after a turn that did nothing, or soon after the last checkpoint, takes none.
 */
export function checkpointDue(
  s: WorkflowState,
  input: { now: string; intervalMs: number; git: GitState | null; lastGit: GitState | null },
): CheckpointDecision {
  const work = tasksMoved(s) ?? gitWork(input.lastGit, input.git);
  if (!work)
    return {
      due: false,
      reason: s.checkpoints.length
        ? 'no work since the last checkpoint'
        : 'no work recorded yet to checkpoint',
    };
  const soon = tooSoon(s, input.now, input.intervalMs);
  return soon ? { due: false, reason: `${work}, but ${soon}` } : { due: true, reason: work };
}

const tasksMoved = (s: WorkflowState) =>
  (s.work_seq ?? 0) > (s.checkpoints[s.checkpoints.length - 1]?.seq ?? 0)
    ? 'tasks moved or side effects recorded'
    : null;

function tooSoon(s: WorkflowState, now: string, intervalMs: number): string | null {
  const last = s.checkpoints[s.checkpoints.length - 1];
  if (!last) return null;
  const ago = Date.parse(now) - Date.parse(last.created_at);
  if (ago >= intervalMs) return null;
  return `the last checkpoint is ${Math.round(ago / 60_000)} min old (interval ${Math.round(intervalMs / 60_000)} min)`;
}

/**
 * Whether the last checkpoint is too recent for any work to make one due, and why; null when the work decides (then
 * the caller reads git for `checkpointDue`). Lets a hook skip reading git on most turns.
 */
export function checkpointTooSoon(
  s: WorkflowState,
  now: string,
  intervalMs: number,
): CheckpointDecision | null {
  const soon = tooSoon(s, now, intervalMs);
  if (!soon) return null;
  const tasks = tasksMoved(s);
  return { due: false, reason: tasks ? `${tasks}, but ${soon}` : soon };
}
