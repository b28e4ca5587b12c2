/**
 * The rows a workflow's events project into the `records` table, one kind per queryable collection.
 * Storage upserts them by (workflow_id, kind, id) and knows nothing else about them.
 */
export const recordKinds = [
  'decision',
  'error',
  'history',
  'feedback',
  'test_run',
  'usage',
  'snapshot',
  'checkpoint',
  'session',
  'side_effect',
  'summary',
  'request',
  'import',
] as const;
export type RecordKind = (typeof recordKinds)[number];

export interface RecordRow {
  workflow_id: string;
  kind: RecordKind;
  id: string;
  /** The event that last wrote the row. */
  seq: number;
  task_id: string | null;
  session_number: number | null;
  created_at: string;
  data: unknown;
}
