import { summarizeSnapshot, type SessionSnapshot } from '../../core/index.js';
import type { StoredEvent } from '../../storage/store.js';

/** Context utilisation at or above which a `usage.recorded` is also surfaced as `capacity.warned`. */
export const CAPACITY_WARNING = 0.7;

/** What a WebSocket client receives: the event type, its store-wide position, and the ids it concerns. */
export interface LiveEvent {
  type: string;
  position: number;
  workflow_id: string | null;
  session_number: number | null;
  task_id: string | null;
  seq: number | null;
  at: string;
  actor: string | null;
  data: unknown;
}

/** Which events a subscriber wants: all, one workflow, or one session of a workflow. */
export interface Subscription {
  workflow_id: string | null;
  session_number: number | null;
}

export const matches = (
  sub: Subscription,
  e: { workflow_id: string | null; session_number: number | null },
) =>
  (sub.workflow_id === null || sub.workflow_id === e.workflow_id) &&
  (sub.session_number === null || sub.session_number === e.session_number);

/**
 * A stored event as live events: itself (a snapshot reduced to its summary), plus the derived ones the dashboard
 * reacts to: `session.state_changed` when a session starts or ends, `capacity.warned` when usage passes 70%.
 * Derived events share the position of the event they come from.
 */
export function liveEvents(e: StoredEvent): LiveEvent[] {
  const base = {
    position: e.position,
    workflow_id: e.workflow_id,
    session_number: e.session_number,
    task_id: e.task_id,
    seq: e.seq,
    at: e.at,
    actor: e.actor,
  };
  const data =
    e.type === 'snapshot.taken'
      ? { snapshot: summarizeSnapshot(e.data.snapshot as SessionSnapshot) }
      : (e.data as unknown);
  const out: LiveEvent[] = [{ ...base, type: e.type, data }];
  if (e.type === 'session.started')
    out.push({ ...base, type: 'session.state_changed', data: { state: 'running', origin: e.data.origin } });
  if (e.type === 'session.ended')
    out.push({
      ...base,
      type: 'session.state_changed',
      data: { state: 'ended', reason: e.data.reason, snapshot_id: e.data.snapshot_id },
    });
  if (e.type === 'usage.recorded') {
    const u = e.data.usage;
    if (u.context_utilization !== null && u.context_utilization >= CAPACITY_WARNING)
      out.push({
        ...base,
        type: 'capacity.warned',
        data: {
          context_utilization: u.context_utilization,
          tokens_used: u.tokens_used,
          context_window: u.context_window,
          threshold: CAPACITY_WARNING,
        },
      });
  }
  return out;
}
