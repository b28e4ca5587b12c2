import type { Draft } from '../draft.js';
import type { WorkflowState } from '../schemas/state.js';
import { allFinished } from '../task-graph.js';
import { assertTransition } from '../workflow-machine.js';
import { endOpenSession } from './lifecycle.js';

/**
 * How long a workflow whose tasks are all done may sit untouched before a new conversation takes it as finished
 * although no SessionEnd came (a terminal closed, or Codex, which has no SessionEnd hook).
 */
export const FINISHED_IDLE_MS = 30 * 60_000;

/**
 * Why the work of a workflow that hooks follow is over at `now`, or null while it may go on. It is over when Baton
 * created it for an agent's session (auto_track), every task of the agent's list is done (or skipped), no error is
 * open, no test is failing, no pause is asked for, and the last agent session ended (its SessionEnd hook came: the
 * user quit or cleared it) or nothing happened in the workflow for FINISHED_IDLE_MS. A new conversation then starts a
 * new workflow instead of being told to continue finished work; a `/clear`, a compaction, a `--resume`, a task left
 * open or an error still continue this one.
 */
export function finishedWork(s: WorkflowState, now: string): string | null {
  if (!s.auto_tracked || s.status !== 'in_progress' || s.pause_requested) return null;
  if (!allFinished(s.tasks)) return null;
  if ((s.counts.open_errors ?? s.open_errors.length) > 0) return null;
  if ((s.test_state?.failing_tests.length ?? 0) > 0) return null;
  const last = s.sessions[s.sessions.length - 1];
  const idle = Date.parse(now) - Date.parse(s.updated_at);
  const n = s.tasks.length;
  const done = n === 1 ? 'its task is done' : `all ${n} of its tasks are done`;
  if (last?.ended_at) return `${done} and ${last.end_reason ?? 'its last session ended'}`;
  if (idle >= FINISHED_IDLE_MS)
    return `${done} and nothing happened in it for ${Math.floor(idle / 60_000)} min`;
  return null;
}

/** Completes a workflow whose work is over (`finishedWork`), saying why; null when it is not (or no longer) over. */
export function finishWork(d: Draft): string | null {
  const why = finishedWork(d.state, d.ctx.now);
  if (why === null) return null;
  assertTransition(d.state.status, 'completed', 'complete the workflow');
  d.emit({ type: 'workflow.completed', data: { reason: why } });
  endOpenSession(d, 'completed', null);
  return why;
}
