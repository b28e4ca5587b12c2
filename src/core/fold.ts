import { BatonError } from './errors.js';
import type { RecordRow } from './records.js';
import type { BatonEvent } from './schemas/events.js';
import type { ErrorRecord } from './schemas/records.js';
import type { WorkflowState } from './schemas/state.js';
import { evolve } from './fold/evolve.js';
import { initialState } from './fold/initial-state.js';
import { project } from './fold/project.js';
import { findError } from './fold/evolve.js';
import { droppedImportRows } from './fold/bounds.js';

export { findError };
export { inRequestOrder, listTotals } from './fold/bounds.js';
export { contextUsage, sessionReading, workflowUsage } from './fold/usage.js';

/** Events that are work done (what makes a checkpoint worth taking): tasks added or moved, side effects. */
export const workEvents: ReadonlySet<BatonEvent['type']> = new Set([
  'task.added',
  'task.deps_added',
  'task.started',
  'task.completed',
  'task.failed',
  'task.blocked',
  'task.unblocked',
  'task.skipped',
  'side_effect.recorded',
]);

/** Events that say a context was handed over or loaded: reading the briefing writes them, and they change nothing in it. */
const handoffEvents: ReadonlySet<BatonEvent['type']> = new Set(['context.delivered', 'context.acknowledged']);

/** Applying one event gives the next state and the record rows the event writes. */
export interface Applied {
  state: WorkflowState;
  writes: RecordRow[];
}

/**
 * Folds one event into the state. `feedback.addressed` needs the record as it was, so the caller passes the
 * stored feedback row when it has one (the state keeps only open feedback).
 */
export function applyEvent(state: WorkflowState | null, e: BatonEvent): Applied {
  let base: WorkflowState;
  if (e.type === 'workflow.created') base = initialState(e);
  else if (e.type === 'workflow.restored') base = e.data.state;
  else if (state) base = state;
  else
    throw new BatonError(
      'internal',
      `event ${e.type} (seq ${e.seq}) of workflow ${e.workflow_id} has no workflow.created before it`,
    );
  const feedbackBefore =
    e.type === 'feedback.addressed'
      ? base.open_feedback.find((f) => f.review_id === e.data.review_id)
      : undefined;
  // evolve returns a new object for every event that changes something, so stamping it in place is safe; only an
  // event that changed nothing hands back `base` itself, which must not be touched.
  const evolved = evolve(base, e);
  const next = evolved === base ? { ...base } : evolved;
  next.version = e.seq;
  next.updated_at = e.at;
  if (workEvents.has(e.type)) next.work_seq = e.seq;
  if (!handoffEvents.has(e.type)) next.content_seq = e.seq;
  const writes = project(next, e);
  if (e.type === 'transcript.imported') writes.push(...droppedImportRows(base, next, e));
  if (feedbackBefore) {
    writes.push({
      workflow_id: e.workflow_id,
      kind: 'feedback',
      id: feedbackBefore.review_id,
      seq: e.seq,
      task_id: e.task_id,
      session_number: e.session_number,
      created_at: feedbackBefore.timestamp,
      data: { ...feedbackBefore, addressed: true },
    });
  }
  return { state: next, writes };
}

/**
 * An `error.resolved` written before events carried the error names it by id only; when the state no longer holds
 * that error (an open error older than the state's newest), the replay finds it among the rows written so far.
 */
function withResolvedError(s: WorkflowState, e: BatonEvent, writes: readonly RecordRow[]): BatonEvent {
  if (e.type !== 'error.resolved' || e.data.error || findError(s, e.data.error_id)) return e;
  for (let i = writes.length - 1; i >= 0; i--) {
    const w = writes[i]!;
    if (w.kind === 'error' && w.id === e.data.error_id)
      return { ...e, data: { ...e.data, error: w.data as ErrorRecord } };
  }
  return e;
}

/** Folds a run of events; with `from` it is "snapshot + tail". */
export function foldEvents(events: readonly BatonEvent[], from: WorkflowState | null = null): Applied {
  let state = from;
  const writes: RecordRow[] = [];
  for (const e of events) {
    const r = applyEvent(state, state ? withResolvedError(state, e, writes) : e);
    state = r.state;
    writes.push(...r.writes);
  }
  if (!state) throw new BatonError('internal', 'no events to fold');
  return { state, writes };
}
