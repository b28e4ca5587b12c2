import type Database from 'better-sqlite3';
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
import { preparePrivateDatabase } from '../private-files.js';
import { migrateSqlite } from './migrate.js';
import { openFailure } from './open-failure.js';
import { WriteLock, type WriteLockOptions } from './write-lock.js';

/** JSON written whole, and appended runs (`,e...`), are valid UTF-8: read as text, they need no decoding later. */
const blobColumns = `b.channel, b.version, b.type, b.base_version, b.prefix_len, b.suffix_len,
  CASE WHEN b.type = 'json' AND (b.base_version IS NULL OR (b.suffix_len <= 1 AND substr(b.value, 1, 1) = x'2c'))
    THEN CAST(b.value AS TEXT) ELSE b.value END AS value,
  coalesce(length(b.value), 0) AS size`;

/** The LangGraph tables in a SQLite file (WAL), beside Baton's own tables in the same file. */
export class SqliteLangGraphTables implements LangGraphTables {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly lock: WriteLock;
  private readonly stmts;
  private readonly listStmts = new Map<string, Database.Statement>();
  private readonly putCheckpointTx: Database.Transaction<
    (row: LgCheckpointRow, blobs: readonly LgBlobRow[]) => void
  >;
  private readonly putWritesTx: Database.Transaction<
    (rows: readonly LgWriteRow[], stmt: Database.Statement) => void
  >;

  constructor(
    readonly location: string,
    options: LangGraphTablesOptions & WriteLockOptions = {},
  ) {
    try {
      preparePrivateDatabase(location);
      this.lock = new WriteLock(location, options);
      const db = (this.db = this.lock.db);
      this.lock.waitFor(() => {
        db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.durability === 'normal' ? 'NORMAL' : 'FULL'}`);
        migrateSqlite(db);
      });
    } catch (e) {
      throw openFailure(location, e);
    }
    const db = this.db;
    this.stmts = {
      insertBlob: db.prepare(
        `INSERT OR IGNORE INTO lg_blobs (thread_id, checkpoint_ns, channel, version, type, value, base_version, prefix_len, suffix_len)
         VALUES (@thread_id, @checkpoint_ns, @channel, @version, @type, @value, @base_version, @prefix_len, @suffix_len)`,
      ),
      upsertCheckpoint: db.prepare(
        `INSERT OR REPLACE INTO lg_checkpoints (${lgCheckpointColumns})
         VALUES (@thread_id, @checkpoint_ns, @checkpoint_id, @parent_checkpoint_id, @type, @checkpoint, @metadata, @channel_versions)`,
      ),
      insertWrite: db.prepare(
        `INSERT OR IGNORE INTO lg_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path)
         VALUES (@thread_id, @checkpoint_ns, @checkpoint_id, @task_id, @idx, @channel, @type, @value, @task_path)`,
      ),
      upsertWrite: db.prepare(
        `INSERT OR REPLACE INTO lg_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path)
         VALUES (@thread_id, @checkpoint_ns, @checkpoint_id, @task_id, @idx, @channel, @type, @value, @task_path)`,
      ),
      checkpoint: db.prepare<[string, string, string], LgCheckpointRow>(
        `SELECT ${lgCheckpointColumns} FROM lg_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?`,
      ),
      latest: db.prepare<[string, string], LgCheckpointRow>(
        `SELECT ${lgCheckpointColumns} FROM lg_checkpoints WHERE thread_id = ? AND checkpoint_ns = ?
         ORDER BY checkpoint_id DESC LIMIT 1`,
      ),
      blobs: db.prepare<{ refs: string; thread: string; ns: string }, LgBlobRead>(
        // the walk carries keys and the rowid only (a recursive queue copies its rows) and UNION visits a shared
        // base once; the values are read once at the end, by rowid
        `WITH RECURSIVE chain(rid, channel, base_version) AS (
           SELECT b.rowid, b.channel, b.base_version
             FROM json_each(@refs) AS r
             CROSS JOIN lg_blobs AS b ON b.thread_id = @thread AND b.checkpoint_ns = @ns
              AND b.channel = json_extract(r.value, '$[0]') AND b.version = json_extract(r.value, '$[1]')
           UNION
           SELECT b.rowid, b.channel, b.base_version
             FROM chain AS c
             CROSS JOIN lg_blobs AS b ON b.thread_id = @thread AND b.checkpoint_ns = @ns
              AND b.channel = c.channel AND b.version = c.base_version
         )
         SELECT ${blobColumns} FROM chain AS c CROSS JOIN lg_blobs AS b ON b.rowid = c.rid`,
      ),
      writes: db.prepare<{ ids: string; thread: string; ns: string }, LgWriteRow>(
        `SELECT * FROM lg_writes WHERE thread_id = @thread AND checkpoint_ns = @ns
           AND checkpoint_id IN (SELECT value FROM json_each(@ids))`,
      ),
      deleteCheckpoints: db.prepare('DELETE FROM lg_checkpoints WHERE thread_id = ?'),
      deleteBlobs: db.prepare('DELETE FROM lg_blobs WHERE thread_id = ?'),
      deleteWrites: db.prepare('DELETE FROM lg_writes WHERE thread_id = ?'),
    };
    // Wrapped once: better-sqlite3 builds a transaction function's four variants each time one is made.
    const stmts = this.stmts;
    this.putCheckpointTx = db.transaction((row: LgCheckpointRow, blobs: readonly LgBlobRow[]) => {
      for (const b of blobs) stmts.insertBlob.run(b);
      stmts.upsertCheckpoint.run(row);
    });
    this.putWritesTx = db.transaction((rows: readonly LgWriteRow[], stmt: Database.Statement) => {
      for (const r of rows) stmt.run(r);
    });
  }

  async putCheckpoint(row: LgCheckpointRow, blobs: readonly LgBlobRow[]): Promise<void> {
    this.lock.write(() => this.putCheckpointTx.immediate(row, blobs));
  }

  async putWrites(rows: readonly LgWriteRow[], mode: 'insert' | 'upsert'): Promise<void> {
    const stmt = mode === 'upsert' ? this.stmts.upsertWrite : this.stmts.insertWrite;
    this.lock.write(() => this.putWritesTx.immediate(rows, stmt));
  }

  async getCheckpoint(threadId: string, ns: string, checkpointId?: string) {
    return checkpointId === undefined
      ? this.stmts.latest.get(threadId, ns)
      : this.stmts.checkpoint.get(threadId, ns, checkpointId);
  }

  async listCheckpoints(query: LgListQuery): Promise<LgCheckpointRow[]> {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    const eq = (column: string, value: string | undefined, op = '=') => {
      if (value === undefined) return;
      where.push(`${column} ${op} @${column}`);
      params[column] = value;
    };
    eq('thread_id', query.thread_id);
    eq('checkpoint_ns', query.checkpoint_ns);
    eq('checkpoint_id', query.checkpoint_id);
    if (query.before !== undefined) {
      where.push('checkpoint_id < @before');
      params.before = query.before;
    }
    (query.filter ?? []).forEach(([key, json], i) => {
      where.push(`(metadata -> @fk${i}) = @fv${i}`);
      params[`fk${i}`] = `$."${key}"`;
      params[`fv${i}`] = json;
    });
    let sql = `SELECT ${lgCheckpointColumns} FROM lg_checkpoints`;
    if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
    sql += ' ORDER BY checkpoint_id DESC';
    if (query.limit !== undefined) {
      sql += ' LIMIT @limit';
      params.limit = query.limit;
    }
    let stmt = this.listStmts.get(sql);
    if (!stmt) this.listStmts.set(sql, (stmt = this.db.prepare(sql)));
    return stmt.all(params) as LgCheckpointRow[];
  }

  async getBlobs(threadId: string, ns: string, refs: readonly LgChannelRef[]): Promise<LgBlobRead[]> {
    if (!refs.length) return [];
    return this.stmts.blobs.all({
      refs: JSON.stringify(refs.map((r) => [r.channel, r.version])),
      thread: threadId,
      ns,
    });
  }

  async getWrites(threadId: string, ns: string, checkpointIds: readonly string[]): Promise<LgWriteRow[]> {
    if (!checkpointIds.length) return [];
    return this.stmts.writes.all({ ids: JSON.stringify(checkpointIds), thread: threadId, ns });
  }

  async deleteThread(threadId: string): Promise<void> {
    this.lock.write(() =>
      this.db
        .transaction(() => {
          this.stmts.deleteCheckpoints.run(threadId);
          this.stmts.deleteBlobs.run(threadId);
          this.stmts.deleteWrites.run(threadId);
        })
        .immediate(),
    );
  }

  async clear(): Promise<void> {
    // one transaction: the three tables emptied together or not at all
    const clear = this.db.transaction(() =>
      this.db.exec('DELETE FROM lg_checkpoints; DELETE FROM lg_blobs; DELETE FROM lg_writes;'),
    );
    this.lock.write(() => clear.immediate());
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
