import type pg from 'pg';
import type { BatonEvent, RecordRow } from '../../core/index.js';
import { EVENT_COLUMNS, eventValues, RECORD_COLUMNS, RECORD_UPSERT, recordValues, widthOf } from '../rows.js';

/** `($1, $2), ($3, $4)` for `rows` rows of `width` columns. */
export function placeholders(rows: number, width: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cols = Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`);
    out.push(`(${cols.join(', ')})`);
  }
  return out.join(', ');
}

/** Rows per statement: well under PostgreSQL's 65,535 parameters. */
const CHUNK = 500;

export async function insertEvents(
  client: pg.Pool | pg.PoolClient,
  events: readonly BatonEvent[],
): Promise<void> {
  for (let i = 0; i < events.length; i += CHUNK) {
    const part = events.slice(i, i + CHUNK);
    await client.query(
      `INSERT INTO events (${EVENT_COLUMNS}) VALUES ${placeholders(part.length, widthOf(EVENT_COLUMNS))}`,
      part.flatMap(eventValues),
    );
  }
}

/**
 * One statement may not upsert a row twice, so within a batch the last write of each key wins, which is what
 * writing them one after the other would leave.
 */
export function lastWriteOfEachKey(writes: readonly RecordRow[]): RecordRow[] {
  const last = new Map<string, RecordRow>();
  for (const w of writes) last.set(`${w.workflow_id}\u0000${w.kind}\u0000${w.id}`, w);
  return [...last.values()];
}

/** Upserts record rows (each key once: `lastWriteOfEachKey`). */
export async function upsertRecords(
  client: pg.Pool | pg.PoolClient,
  writes: readonly RecordRow[],
): Promise<void> {
  const rows = lastWriteOfEachKey(writes);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    await client.query(
      `INSERT INTO records (${RECORD_COLUMNS}) VALUES ${placeholders(part.length, widthOf(RECORD_COLUMNS))} ${RECORD_UPSERT}`,
      part.flatMap(recordValues),
    );
  }
}
