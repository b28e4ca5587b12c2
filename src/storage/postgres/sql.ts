import type pg from 'pg';
import type { BatonEvent, RecordRow } from '../../core/index.js';

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

export async function insertEvents(client: pg.PoolClient, events: readonly BatonEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += CHUNK) {
    const part = events.slice(i, i + CHUNK);
    const params = part.flatMap((e) => [
      e.workflow_id,
      e.seq,
      e.type,
      e.at,
      e.actor,
      e.session_number,
      e.task_id,
      e.v,
      JSON.stringify(e.data),
    ]);
    await client.query(
      `INSERT INTO events (workflow_id, seq, type, at, actor, session_number, task_id, v, data) VALUES ${placeholders(part.length, 9)}`,
      params,
    );
  }
}

/**
 * Upserts record rows. One statement may not touch a row twice, so within a batch the last write of each key
 * wins, which is what writing them one after the other would leave.
 */
export async function upsertRecords(client: pg.PoolClient, writes: readonly RecordRow[]): Promise<void> {
  const last = new Map<string, RecordRow>();
  for (const w of writes) last.set(`${w.workflow_id}\u0000${w.kind}\u0000${w.id}`, w);
  const rows = [...last.values()];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    const params = part.flatMap((w) => [
      w.workflow_id,
      w.kind,
      w.id,
      w.seq,
      w.task_id,
      w.session_number,
      w.created_at,
      JSON.stringify(w.data),
    ]);
    await client.query(
      `INSERT INTO records (workflow_id, kind, id, seq, task_id, session_number, created_at, data)
       VALUES ${placeholders(part.length, 8)}
       ON CONFLICT (workflow_id, kind, id) DO UPDATE SET seq = excluded.seq, task_id = excluded.task_id,
         session_number = excluded.session_number, created_at = excluded.created_at, data = excluded.data`,
      params,
    );
  }
}
