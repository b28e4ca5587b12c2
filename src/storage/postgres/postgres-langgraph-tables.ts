import type pg from 'pg';
import {
  lgCheckpointColumns,
  type LangGraphTables,
  type LangGraphTablesOptions,
  type LgBlobRead,
  type LgBlobRow,
  type LgChannelRef,
  type LgCheckpointRow,
  type LgListQuery,
  type LgWriteRow,
} from '../langgraph-tables.js';
import { queryRows, redactUrl } from './connection.js';
import { openMigratedPool } from './migrate.js';

const blobColumns = 'channel, version, type, value, base_version, prefix_len, suffix_len';
const prefixed = (alias: string) => blobColumns.replace(/(\w+)/g, `${alias}.$1`);
const writeColumns = 'thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path';

const insertBlobs = `INSERT INTO lg_blobs (thread_id, checkpoint_ns, channel, version, type, value, base_version, prefix_len, suffix_len)
  SELECT $1, $2, * FROM unnest($9::text[], $10::text[], $11::text[], $12::bytea[], $13::text[], $14::int[], $15::int[])
  ON CONFLICT DO NOTHING`;
const upsertCheckpoint = `INSERT INTO lg_checkpoints (${lgCheckpointColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET parent_checkpoint_id = excluded.parent_checkpoint_id,
    type = excluded.type, checkpoint = excluded.checkpoint, metadata = excluded.metadata,
    channel_versions = excluded.channel_versions`;
/** Blobs and checkpoint in one statement: atomic, and one round trip. */
const putCheckpointSql = `WITH blobs AS (${insertBlobs}) ${upsertCheckpoint}`;

const writesSql = (mode: 'insert' | 'upsert') =>
  `INSERT INTO lg_writes (${writeColumns})
   SELECT $1, $2, $3, * FROM unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::bytea[], $9::text[])
   ${
     mode === 'upsert'
       ? 'ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE SET channel = excluded.channel, type = excluded.type, value = excluded.value, task_path = excluded.task_path'
       : 'ON CONFLICT DO NOTHING'
   }`;

/** The walk carries keys only (a recursive queue copies its rows) and UNION visits a shared base once; the values are joined once at the end. */
const blobsSql = `WITH RECURSIVE chain(channel, version, base_version) AS (
    SELECT b.channel, b.version, b.base_version FROM unnest($3::text[], $4::text[]) AS r(channel, version)
      JOIN lg_blobs AS b ON b.thread_id = $1 AND b.checkpoint_ns = $2 AND b.channel = r.channel AND b.version = r.version
    UNION
    SELECT b.channel, b.version, b.base_version FROM chain AS c
      JOIN lg_blobs AS b ON b.thread_id = $1 AND b.checkpoint_ns = $2 AND b.channel = c.channel AND b.version = c.base_version
  )
  SELECT ${prefixed('b')} FROM chain AS c
    JOIN lg_blobs AS b ON b.thread_id = $1 AND b.checkpoint_ns = $2 AND b.channel = c.channel AND b.version = c.version`;

/** The LangGraph tables in PostgreSQL, beside Baton's own tables in the same database. */
export class PostgresLangGraphTables implements LangGraphTables {
  readonly dialect = 'postgres' as const;
  readonly location: string;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {
    this.location = redactUrl(url);
  }

  static async open(url: string, options: LangGraphTablesOptions = {}): Promise<PostgresLangGraphTables> {
    return new PostgresLangGraphTables(await openMigratedPool(url, options), url);
  }

  private query<R extends pg.QueryResultRow>(sql: string, params: unknown[], what: string): Promise<R[]> {
    return queryRows<R>(this.pool, this.url, sql, params, what);
  }

  async putCheckpoint(row: LgCheckpointRow, blobs: readonly LgBlobRow[]): Promise<void> {
    await this.query(
      putCheckpointSql,
      [
        row.thread_id,
        row.checkpoint_ns,
        row.checkpoint_id,
        row.parent_checkpoint_id,
        row.type,
        Buffer.from(row.checkpoint),
        row.metadata,
        row.channel_versions,
        blobs.map((b) => b.channel),
        blobs.map((b) => b.version),
        blobs.map((b) => b.type),
        blobs.map((b) => (b.value ? Buffer.from(b.value) : null)),
        blobs.map((b) => b.base_version),
        blobs.map((b) => b.prefix_len),
        blobs.map((b) => b.suffix_len),
      ],
      'saving a LangGraph checkpoint',
    );
  }

  async putWrites(rows: readonly LgWriteRow[], mode: 'insert' | 'upsert'): Promise<void> {
    const first = rows[0];
    if (!first) return;
    await this.query(
      writesSql(mode),
      [
        first.thread_id,
        first.checkpoint_ns,
        first.checkpoint_id,
        rows.map((r) => r.task_id),
        rows.map((r) => r.idx),
        rows.map((r) => r.channel),
        rows.map((r) => r.type),
        rows.map((r) => (r.value ? Buffer.from(r.value) : null)),
        rows.map((r) => r.task_path),
      ],
      'saving LangGraph pending writes',
    );
  }

  async getCheckpoint(threadId: string, ns: string, checkpointId?: string) {
    const rows =
      checkpointId === undefined
        ? await this.query<LgCheckpointRow>(
            `SELECT ${lgCheckpointColumns} FROM lg_checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1`,
            [threadId, ns],
            'reading a LangGraph checkpoint',
          )
        : await this.query<LgCheckpointRow>(
            `SELECT ${lgCheckpointColumns} FROM lg_checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
            [threadId, ns, checkpointId],
            'reading a LangGraph checkpoint',
          );
    return rows[0];
  }

  async listCheckpoints(query: LgListQuery): Promise<LgCheckpointRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: (n: string) => string, ...values: unknown[]) => {
      const ns = values.map((v) => `$${params.push(v)}`);
      where.push(clause(ns.join(',')));
      return ns;
    };
    if (query.thread_id !== undefined) add((p) => `thread_id = ${p}`, query.thread_id);
    if (query.checkpoint_ns !== undefined) add((p) => `checkpoint_ns = ${p}`, query.checkpoint_ns);
    if (query.checkpoint_id !== undefined) add((p) => `checkpoint_id = ${p}`, query.checkpoint_id);
    if (query.before !== undefined) add((p) => `checkpoint_id < ${p}`, query.before);
    for (const [key, json] of query.filter ?? []) {
      const k = `$${params.push(key)}`;
      const v = `$${params.push(json)}`;
      // json (not jsonb) for the row: it accepts \u0000, which jsonb refuses
      where.push(`((metadata::json) -> ${k}::text)::jsonb = ${v}::jsonb`);
    }
    let sql = `SELECT ${lgCheckpointColumns} FROM lg_checkpoints`;
    if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
    sql += ' ORDER BY checkpoint_id DESC';
    if (query.limit !== undefined) sql += ` LIMIT $${params.push(query.limit)}`;
    return this.query<LgCheckpointRow>(sql, params, 'listing LangGraph checkpoints');
  }

  async getBlobs(threadId: string, ns: string, refs: readonly LgChannelRef[]): Promise<LgBlobRead[]> {
    if (!refs.length) return [];
    const rows = await this.query<Omit<LgBlobRead, 'size'> & { value: Buffer | null }>(
      blobsSql,
      [threadId, ns, refs.map((r) => r.channel), refs.map((r) => r.version)],
      'reading LangGraph channel values',
    );
    return rows.map((r) => ({ ...r, size: r.value?.length ?? 0 }));
  }

  async getWrites(threadId: string, ns: string, checkpointIds: readonly string[]): Promise<LgWriteRow[]> {
    if (!checkpointIds.length) return [];
    return this.query<LgWriteRow>(
      `SELECT ${writeColumns} FROM lg_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = ANY($3::text[])`,
      [threadId, ns, checkpointIds],
      'reading LangGraph pending writes',
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.query(
      `WITH c AS (DELETE FROM lg_checkpoints WHERE thread_id = $1), b AS (DELETE FROM lg_blobs WHERE thread_id = $1)
       DELETE FROM lg_writes WHERE thread_id = $1`,
      [threadId],
      'deleting a LangGraph thread',
    );
  }

  async clear(): Promise<void> {
    await this.query('TRUNCATE lg_checkpoints, lg_blobs, lg_writes', [], 'clearing the LangGraph tables');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
