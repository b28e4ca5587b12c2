import {
  conflict,
  type BatonEvent,
  type RecordKind,
  type RecordRow,
  type WorkflowState,
} from '../core/index.js';

export interface EventRow {
  position: number;
  workflow_id: string;
  seq: number;
  type: string;
  at: string;
  actor: string;
  session_number: number | null;
  task_id: string | null;
  v: number;
  data: string;
}

export interface RecordDbRow {
  workflow_id: string;
  kind: string;
  id: string;
  seq: number;
  task_id: string | null;
  session_number: number | null;
  created_at: string;
  data: string;
}

export const eventFromRow = (r: EventRow): BatonEvent =>
  ({
    v: r.v,
    workflow_id: r.workflow_id,
    seq: r.seq,
    at: r.at,
    actor: r.actor,
    session_number: r.session_number,
    task_id: r.task_id,
    type: r.type,
    data: JSON.parse(r.data) as unknown,
  }) as BatonEvent;

/** An event's column values in the order `EVENT_COLUMNS` names them (the store-wide position is the store's). */
export const EVENT_COLUMNS = 'workflow_id, seq, type, at, actor, session_number, task_id, v, data';
export const eventValues = (e: BatonEvent): unknown[] => [
  e.workflow_id,
  e.seq,
  e.type,
  e.at,
  e.actor,
  e.session_number,
  e.task_id,
  e.v,
  JSON.stringify(e.data),
];

/** A record row's column values in the order `RECORD_COLUMNS` names them. */
export const RECORD_COLUMNS = 'workflow_id, kind, id, seq, task_id, session_number, created_at, data';
export const recordValues = (w: RecordRow): unknown[] => [
  w.workflow_id,
  w.kind,
  w.id,
  w.seq,
  w.task_id,
  w.session_number,
  w.created_at,
  JSON.stringify(w.data),
];

/** How many values a row of a column list has. */
export const widthOf = (columns: string): number => columns.split(',').length;

/** What an upsert of a record row sets when the row exists (both dialects). */
export const RECORD_UPSERT = `ON CONFLICT (workflow_id, kind, id) DO UPDATE SET seq = excluded.seq, task_id = excluded.task_id,
  session_number = excluded.session_number, created_at = excluded.created_at, data = excluded.data`;

export const recordFromRow = (r: RecordDbRow): RecordRow => ({
  workflow_id: r.workflow_id,
  kind: r.kind as RecordKind,
  id: r.id,
  seq: r.seq,
  task_id: r.task_id,
  session_number: r.session_number,
  created_at: r.created_at,
  data: JSON.parse(r.data) as unknown,
});

/** A rebuilt projection must be the fold of the whole log: refuse it when events were appended meanwhile. */
export function assertRebuiltFromLatest(workflowId: string, state: WorkflowState, lastSeq: number): void {
  if (state.version !== lastSeq)
    throw conflict(
      `workflow ${workflowId} changed while it was being rebuilt (folded version ${state.version}, log at ${lastSeq}); run the rebuild again`,
      { workflow_id: workflowId, expected_version: state.version, current_version: lastSeq },
    );
}
