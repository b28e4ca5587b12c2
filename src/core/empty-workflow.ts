import type { WorkflowState } from './schemas/state.js';

/** A workflow with nothing in it yet: no issue, task, request or record (as an agent session opened it). */
export const isEmptyWorkflow = (s: WorkflowState): boolean =>
  !s.issue &&
  s.tasks.length === 0 &&
  (s.recent_requests ?? []).length === 0 &&
  Object.values(s.counts).every((n) => n === 0);

/**
 * A workflow Baton opened by itself (for an agent session's hooks, or for an import) that holds nothing so far: a
 * conversation opened and left, or not yet used. It is nobody's work: where a worktree has others, they are what a
 * command without an id means.
 */
export const isUnusedSessionWorkflow = (s: WorkflowState): boolean =>
  s.auto_tracked === true && isEmptyWorkflow(s);
