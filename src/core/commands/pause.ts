import type { Draft } from '../draft.js';
import { assertTransition } from '../workflow-machine.js';
import { inProgressTasks } from '../task-graph.js';
import type { GitCapture } from '../schemas/git-state.js';
import type { SnapshotTrigger } from '../schemas/workflow.js';
import type { WorkflowState } from '../schemas/state.js';
import { endOpenSession } from './lifecycle.js';
import { takeSnapshot } from './snapshots.js';

export interface PauseInput {
  reason: string | null;
  trigger: SnapshotTrigger;
  force: boolean;
  /** How long a requested pause waits for the task boundary before it is forced. */
  timeoutMs: number;
  git: GitCapture;
}

export type PauseOutcome =
  | { outcome: 'paused'; snapshot_id: string; warning: string | null }
  | { outcome: 'requested'; waiting_for: string[] }
  | { outcome: 'already_paused'; snapshot_id: string | null };

/**
 * Whether a requested pause has waited longer than its timeout (the one it was requested with, else `defaultMs`), and
 * that timeout: the one place this is decided (the pause itself, the service's enforcement, status).
 */
export function pauseOverdue(
  s: Pick<WorkflowState, 'pause_request'>,
  now: string,
  defaultMs: number,
): { overdue: boolean; timeoutMs: number } {
  const timeoutMs = s.pause_request?.timeout_ms ?? defaultMs;
  const overdue =
    s.pause_request !== null && Date.parse(now) - Date.parse(s.pause_request.requested_at) >= timeoutMs;
  return { overdue, timeoutMs };
}

/** Pauses now: a snapshot, `workflow.paused`, and the end of the running session (when one runs). */
export function pauseNow(
  d: Draft,
  reason: string | null,
  trigger: SnapshotTrigger,
  git: GitCapture,
  warning: string | null,
) {
  const snapshot = takeSnapshot(d, trigger, reason, git, warning ? [warning] : []);
  d.emit({
    type: 'workflow.paused',
    data: { reason, trigger, forced: warning !== null, snapshot_id: snapshot.id, warning },
  });
  endOpenSession(d, trigger, snapshot.id);
  return snapshot;
}

/**
 * Pause waits for the task boundary: with tasks in progress it only records the request, and the workflow
 * pauses when they end. `force`, or the request outliving `timeoutMs`, pauses at once with a warning.
 * Pausing a paused workflow changes nothing.
 */
export function pause(d: Draft, input: PauseInput): PauseOutcome {
  const s = d.state;
  if (s.status === 'paused') return { outcome: 'already_paused', snapshot_id: s.last_snapshot?.id ?? null };
  assertTransition(s.status, 'paused', 'pause');
  const running = inProgressTasks(s.tasks).map((t) => t.id);
  const { overdue, timeoutMs } = pauseOverdue(s, d.ctx.now, input.timeoutMs);
  if (running.length === 0 || input.force || overdue) {
    const warning = running.length
      ? `${input.force ? 'forced pause' : `pause timeout of ${Math.round(timeoutMs / 1000)} s passed`}` +
        ` while ${running.join(', ')} ${running.length > 1 ? 'were' : 'was'} in progress`
      : null;
    const reason = input.reason ?? s.pause_request?.reason ?? null;
    const trigger = s.pause_request && !input.reason ? s.pause_request.trigger : input.trigger;
    const snapshot = pauseNow(d, reason, trigger, input.git, warning);
    return { outcome: 'paused', snapshot_id: snapshot.id, warning };
  }
  if (!s.pause_requested)
    d.emit({
      type: 'workflow.pause_requested',
      data: { reason: input.reason, trigger: input.trigger, timeout_ms: input.timeoutMs },
    });
  return { outcome: 'requested', waiting_for: running };
}
