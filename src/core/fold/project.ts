import type { RecordRow } from '../records.js';
import type { BatonEvent } from '../schemas/events.js';
import type { WorkflowState } from '../schemas/state.js';
import { projectRuntime } from '../runtime-fold.js';
import { currentSession, findError, importMark } from './evolve.js';
import { usageSessionIndex } from './usage.js';

/** The record rows one event writes, computed from the state after it. */
export function project(s: WorkflowState, e: BatonEvent): RecordRow[] {
  const row = (kind: RecordRow['kind'], id: string, data: unknown, created_at = e.at): RecordRow => ({
    workflow_id: e.workflow_id,
    kind,
    id,
    seq: e.seq,
    task_id: e.task_id,
    session_number: e.session_number,
    created_at,
    data,
  });
  const session = currentSession(s);
  const sessionRow = () =>
    session ? [row('session', String(session.number), session, session.started_at)] : [];
  switch (e.type) {
    case 'decision.recorded':
      return [row('decision', e.data.decision.id, e.data.decision)];
    case 'error.recorded':
      return [row('error', e.data.error.id, e.data.error)];
    case 'error.resolved': {
      const err = findError(s, e.data.error_id);
      return err ? [row('error', err.id, err, err.timestamp)] : [];
    }
    case 'history.recorded':
      return [row('history', e.data.entry.id, e.data.entry)];
    case 'request.recorded':
      return [row('request', e.data.request.id, e.data.request)];
    case 'feedback.recorded':
      return [row('feedback', e.data.feedback.review_id, e.data.feedback)];
    case 'test_run.recorded':
      return [row('test_run', `${e.seq}`, e.data.test_state)];
    case 'summary.recorded':
      return [row('summary', e.data.summary.id, e.data.summary)];
    case 'usage.recorded': {
      // a reading of an earlier session (its transcript read late) changes that session's record, written already
      const at = usageSessionIndex(s, e.data.source);
      const of = at >= 0 && at < s.sessions.length - 1 ? s.sessions[at] : undefined;
      const earlier = of ? [row('session', String(of.number), of, of.started_at)] : [];
      return [row('usage', `${e.seq}`, e.data.usage), ...earlier];
    }
    case 'snapshot.taken':
      return [row('snapshot', e.data.snapshot.id, e.data.snapshot)];
    case 'checkpoint.created':
      return [row('checkpoint', e.data.checkpoint.name, e.data.checkpoint)];
    case 'session.started': {
      // The session before it is final now (its usage and agent included): its record is what listings of sessions
      // older than the state's recent ones show.
      const before = s.sessions.at(-2);
      const previous = before ? [row('session', String(before.number), before, before.started_at)] : [];
      return [...previous, ...sessionRow()];
    }
    case 'session.linked':
    case 'session.ended':
    case 'task.completed':
      return sessionRow();
    case 'side_effect.recorded':
      return projectRuntime(e, row);
    case 'transcript.imported':
      return [row('import', e.data.transcript_session_id, importMark(e.data, e.at))];
    case 'workflow.restored':
      return e.data.records.map((r) => ({ workflow_id: e.workflow_id, ...r }));
    default:
      return [];
  }
}
