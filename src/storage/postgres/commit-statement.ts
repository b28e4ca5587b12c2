import type { BatonEvent, RecordRow } from '../../core/index.js';
import type { CommitBatch } from '../store.js';
import { EVENT_COLUMNS, eventValues, RECORD_COLUMNS, RECORD_UPSERT, recordValues } from '../rows.js';
import { lastWriteOfEachKey } from './sql.js';

/** Column types of `EVENT_COLUMNS` and `RECORD_COLUMNS`, so that values in a `VALUES` list insert as typed. */
const EVENT_TYPES = ['text', 'integer', 'text', 'text', 'text', 'integer', 'text', 'integer', 'text'];
const RECORD_TYPES = ['text', 'text', 'text', 'integer', 'text', 'integer', 'text', 'text'];

/** Rows per table one statement carries (well under PostgreSQL's 65,535 parameters). */
const ONE_STATEMENT_ROWS = 500;

export const fitsOneStatement = (b: CommitBatch): boolean =>
  b.events.length <= ONE_STATEMENT_ROWS && b.writes.length <= ONE_STATEMENT_ROWS;

export interface BatchStatement {
  /** The statement's shape (each shape is prepared once per connection, then only executed). */
  name: string;
  text: string;
  values: unknown[];
  /** What did not fit: written after the statement, in the same transaction (sql.ts). */
  rest: { events: BatonEvent[]; writes: RecordRow[] };
}

/**
 * One batch as one SQL statement: the workflow row (insert when `expectedVersion` is 0, else the version-checked
 * update), its events and its record rows, in data-modifying CTEs. The inserts read the row write's RETURNING, so
 * they write nothing when it matched nothing (a stale version, or a workflow that already exists); the statement
 * answers `n`, the workflow rows written (1, or 0 for that refusal). Outside a transaction it commits on its own:
 * one round trip and one commit instead of BEGIN, three statements and COMMIT. Events are inserted in `seq` order,
 * so their `entry` follows it. A batch of more than 500 events or record rows leaves the rest in `rest`.
 */
export function commitStatement(b: CommitBatch): BatchStatement {
  const s = b.state;
  const values: unknown[] = [];
  const param = (v: unknown, type?: string) => (
    values.push(v),
    type ? `$${values.length}::${type}` : `$${values.length}`
  );
  // The title column is only an index (the state holds the real title); PostgreSQL text cannot hold NUL.
  const title = s.title.replaceAll('\u0000', '\ufffd');
  const state = JSON.stringify(s);
  const row =
    b.expectedVersion === 0
      ? `INSERT INTO workflows (id, status, worktree, title, version, created_at, updated_at, state) VALUES (${[
          b.workflowId,
          s.status,
          s.worktree,
          title,
          s.version,
          s.created_at,
          s.updated_at,
          state,
        ]
          .map((v) => param(v))
          .join(', ')}) ON CONFLICT (id) DO NOTHING RETURNING id`
      : `UPDATE workflows SET status = ${param(s.status)}, worktree = ${param(s.worktree)}, title = ${param(title)}, version = ${param(s.version)}, updated_at = ${param(s.updated_at)}, state = ${param(state)} WHERE id = ${param(b.workflowId)} AND version = ${param(b.expectedVersion)}${b.unloadedBase ? ` AND state = ${param(JSON.stringify(b.unloadedBase))}` : ''} RETURNING id`;
  const rows = (list: unknown[][], types: string[]) =>
    list.map((r) => `(${r.map((v, i) => param(v, types[i])).join(', ')})`).join(', ');
  const parts = [`w AS (${row})`];
  const events = b.events.slice(0, ONE_STATEMENT_ROWS);
  if (events.length)
    parts.push(
      `e AS (INSERT INTO events (${EVENT_COLUMNS}) SELECT * FROM (VALUES ${rows(events.map(eventValues), EVENT_TYPES)}) AS v (${EVENT_COLUMNS}) WHERE EXISTS (SELECT 1 FROM w) ORDER BY v.seq)`,
    );
  const allWrites = lastWriteOfEachKey(b.writes);
  const writes = allWrites.slice(0, ONE_STATEMENT_ROWS);
  if (writes.length)
    parts.push(
      `r AS (INSERT INTO records (${RECORD_COLUMNS}) SELECT * FROM (VALUES ${rows(writes.map(recordValues), RECORD_TYPES)}) AS v (${RECORD_COLUMNS}) WHERE EXISTS (SELECT 1 FROM w) ${RECORD_UPSERT})`,
    );
  return {
    name: `baton-commit-${b.expectedVersion === 0 ? 'new' : b.unloadedBase ? 'next-unloaded' : 'next'}-${events.length}-${writes.length}`,
    text: `WITH ${parts.join(', ')} SELECT count(*)::int AS n FROM w`,
    values,
    rest: { events: b.events.slice(ONE_STATEMENT_ROWS), writes: allWrites.slice(ONE_STATEMENT_ROWS) },
  };
}
