import { summarizeSnapshot, type SessionSnapshot } from '../../core/index.js';
import type { PositionedEvent } from '../../service/index.js';

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
 * reacts to: `session.state_changed` when a session starts or ends. Derived events share the position of the
 * event they come from. (`capacity.warned` is a stored event of its own, written by core at the configured
 * threshold; the server never invents one.)
 */
export function liveEvents(e: PositionedEvent): LiveEvent[] {
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
  return out;
}
