import type { Draft } from '../draft.js';
import type { WorkflowState } from '../schemas/state.js';
import { allFinished } from '../task-graph.js';
import { assertTransition } from '../workflow-machine.js';

/**
 * Why the work of a workflow that hooks follow is over, or null while it may go on. It is over when Baton created it
 * for an agent's session (auto_track), every task of the agent's list is done (or skipped), no error is open, no test
 * is failing, no pause is asked for, and the last agent session ended (its SessionEnd hook came: the user quit or
 * cleared it, nothing crashed). A new conversation then starts a new workflow instead of being told to continue
 * finished work; a crash, a usage limit, a `/clear` or a `--resume` still continue this one.
 */
export function finishedWork(s: WorkflowState): string | null {
  if (!s.auto_tracked || s.status !== 'in_progress' || s.pause_requested) return null;
  const last = s.sessions[s.sessions.length - 1];
  if (!last?.ended_at || !allFinished(s.tasks)) return null;
  if ((s.counts.open_errors ?? s.open_errors.length) > 0) return null;
  if ((s.test_state?.failing_tests.length ?? 0) > 0) return null;
  const n = s.tasks.length;
  return `${n === 1 ? 'its task is' : `all ${n} of its tasks are`} done and ${last.end_reason ?? 'its last session ended'}`;
}

/** Completes a workflow whose work is over (`finishedWork`), saying why; null when it is not (or no longer) over. */
export function finishWork(d: Draft): string | null {
  const why = finishedWork(d.state);
  if (why === null) return null;
  assertTransition(d.state.status, 'completed', 'complete the workflow');
  d.emit({ type: 'workflow.completed', data: { reason: why } });
  return why;
}
