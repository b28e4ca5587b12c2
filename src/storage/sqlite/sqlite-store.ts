import type Database from 'better-sqlite3';
import { type BatonEvent, type RecordKind, type RecordRow, type WorkflowState } from '../../core/index.js';
import { SqliteExecutors } from './sqlite-executors.js';
import { SqliteLeases } from './sqlite-leases.js';
import { SqliteWorkers } from './sqlite-workers.js';
import { SqliteWorkQueue } from './sqlite-work-queue.js';
import type {
  CommitBatch,
  Durability,
  LiveState,
  RecordQuery,
  Store,
  StoredEvent,
  WorkflowFilter,
} from '../store.js';
import {
  assertRebuiltFromLatest,
  eventFromRow,
  recordFromRow,
  type EventRow,
  type RecordDbRow,
} from '../rows.js';
import { preparePrivateDatabase } from '../private-files.js';
import { migrateSqlite } from './migrate.js';
import { BatchWriter } from './batch-writer.js';
import { StateCache } from './state-cache.js';
import { openFailure } from './open-failure.js';
import { WriteLock, type WriteLockOptions } from './write-lock.js';

export interface SqliteOptions extends WriteLockOptions {
  durability?: Durability;
}

/**
 * The embedded store: one SQLite file in WAL mode. Safe for several processes on one file (the CLI beside a
 * server): writers take the write lock up front (BEGIN IMMEDIATE) and wait up to the busy timeout for it, every
 * write of the store and its registries through one WriteLock.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly lock: WriteLock;
  readonly executors: SqliteExecutors;
  readonly leases: SqliteLeases;
  readonly workQueue: SqliteWorkQueue;
  readonly workers: SqliteWorkers;
  private readonly stmts;
  private readonly writer: BatchWriter;
  private readonly cache = new StateCache();

  constructor(
    readonly location: string,
    options: SqliteOptions = {},
  ) {
    try {
      preparePrivateDatabase(location);
      this.lock = new WriteLock(location, options);
      const db = (this.db = this.lock.db);
      this.lock.waitFor(() => {
        db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.durability === 'normal' ? 'NORMAL' : 'FULL'}`);
        // Checkpoint the WAL every ~40 MB rather than every 4 MB: big transactions (startup recovery, imports) then
        // trigger few checkpoints. Once it has been checkpointed the WAL is rewritten in place, and a commit's fsync
        // overwrites blocks the file already has: about twice as fast on ext4 as one that grows the file.
        db.pragma('wal_autocheckpoint = 10000');
        migrateSqlite(db);
      });
    } catch (e) {
      throw openFailure(location, e);
    }
    const db = this.db;
    this.executors = new SqliteExecutors(this.lock);
    this.leases = new SqliteLeases(this.lock);
    this.workQueue = new SqliteWorkQueue(this.lock, this.leases);
    this.workers = new SqliteWorkers(this.lock);
    this.writer = new BatchWriter(db);
    this.stmts = {
      // The state only when the row changed since this process last saw it (its rev differs).
      state: db.prepare<[number, string], { rev: number; state: string | null }>(
        'SELECT rev, CASE WHEN rev = ? THEN NULL ELSE state END AS state FROM workflows WHERE id = ?',
      ),
      events: db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM events WHERE workflow_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      eventsSince: db.prepare<[number, number], EventRow>(
        'SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?',
      ),
      eventsSinceFor: db.prepare<[number, string, number], EventRow>(
        'SELECT * FROM events WHERE position > ? AND workflow_id = ? ORDER BY position LIMIT ?',
      ),
      record: db.prepare<[string, string, string], RecordDbRow>(
        'SELECT * FROM records WHERE workflow_id = ? AND kind = ? AND id = ?',
      ),
      findSnapshot: db.prepare<[string], RecordDbRow>(
        "SELECT * FROM records WHERE kind = 'snapshot' AND id = ? LIMIT 1",
      ),
      saveLive: db.prepare(
        `INSERT INTO live_states (workflow_id, saved_at, trigger, version, data) VALUES (@workflow_id, @saved_at, @trigger, @version, @data)
         ON CONFLICT (workflow_id) DO UPDATE SET saved_at = excluded.saved_at, trigger = excluded.trigger, version = excluded.version, data = excluded.data`,
      ),
      loadLive: db.prepare<
        [string],
        {
          workflow_id: string;
          saved_at: string;
          trigger: LiveState['trigger'];
          version: number;
          data: string;
        }
      >('SELECT * FROM live_states WHERE workflow_id = ?'),
      ids: db.prepare<[], { id: string }>('SELECT id FROM workflows ORDER BY created_at, id'),
    };
  }

  /** Commits batches in one transaction; once it is durable, their states are the ones this process knows. */
  private commitTx(batches: readonly CommitBatch[]): void {
    const revs = this.lock.write(() => this.writeAll.immediate(batches));
    batches.forEach((b, i) => this.cache.set(b.workflowId, revs[i]!, b.state));
  }
  private get writeAll() {
    const tx = this.db.transaction((batches: readonly CommitBatch[]) => {
      let position = this.writer.nextPosition();
      return batches.map((b) => {
        const rev = this.writer.write(b, position);
        position += b.events.length;
        return rev;
      });
    });
    Object.defineProperty(this, 'writeAll', { value: tx });
    return tx;
  }

  async commit(batch: CommitBatch): Promise<void> {
    this.commitTx([batch]);
  }

  async commitMany(batches: readonly CommitBatch[]): Promise<void> {
    if (batches.length) this.commitTx(batches);
  }

  async loadState(workflowId: string): Promise<WorkflowState | null> {
    const cached = this.cache.get(workflowId);
    const row = this.stmts.state.get(cached?.rev ?? -1, workflowId);
    if (!row) {
      this.cache.delete(workflowId);
      return null;
    }
    if (row.state === null) return cached!.state;
    const state = JSON.parse(row.state) as WorkflowState;
    this.cache.set(workflowId, row.rev, state);
    return state;
  }

  async listWorkflows(filter: WorkflowFilter = {}): Promise<WorkflowState[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status?.length) {
      where.push(`status IN (${filter.status.map(() => '?').join(', ')})`);
      params.push(...filter.status);
    }
    if (filter.worktree !== undefined) {
      where.push('worktree = ?');
      params.push(filter.worktree);
    }
    if (filter.updatedBefore !== undefined) {
      where.push('updated_at < ?');
      params.push(filter.updatedBefore);
    }
    const sql = `SELECT state FROM workflows ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id LIMIT ?`;
    params.push(filter.limit ?? -1);
    return this.db
      .prepare<unknown[], { state: string }>(sql)
      .all(...params)
      .map((r) => JSON.parse(r.state) as WorkflowState);
  }

  async readEvents(workflowId: string, afterSeq = 0, limit = -1): Promise<BatonEvent[]> {
    return this.stmts.events.all(workflowId, afterSeq, limit).map(eventFromRow);
  }

  async readEventsSince(position: number, limit: number, workflowId?: string): Promise<StoredEvent[]> {
    const rows = workflowId
      ? this.stmts.eventsSinceFor.all(position, workflowId, limit)
      : this.stmts.eventsSince.all(position, limit);
    return rows.map((r) => ({ ...eventFromRow(r), position: r.position }));
  }

  async getRecord(workflowId: string, kind: RecordKind, id: string): Promise<RecordRow | null> {
    const r = this.stmts.record.get(workflowId, kind, id);
    return r ? recordFromRow(r) : null;
  }

  async findSnapshot(snapshotId: string): Promise<RecordRow | null> {
    const r = this.stmts.findSnapshot.get(snapshotId);
    return r ? recordFromRow(r) : null;
  }

  async listRecords(workflowId: string, kind: RecordKind, q: RecordQuery = {}): Promise<RecordRow[]> {
    const sql = `SELECT * FROM records WHERE workflow_id = ? AND kind = ? AND created_at <= ? ORDER BY created_at ${q.newestFirst ? 'DESC' : 'ASC'}, seq, id LIMIT ?`;
    return this.db
      .prepare<unknown[], RecordDbRow>(sql)
      .all(workflowId, kind, q.createdThrough ?? '\uffff', q.limit ?? -1)
      .map(recordFromRow);
  }

  async saveLiveState(live: LiveState): Promise<void> {
    this.lock.write(() => this.stmts.saveLive.run({ ...live, data: JSON.stringify(live.data) }));
  }

  async loadLiveState(workflowId: string): Promise<LiveState | null> {
    const r = this.stmts.loadLive.get(workflowId);
    return r ? { ...r, data: JSON.parse(r.data) as unknown } : null;
  }

  async replaceProjection(
    workflowId: string,
    state: WorkflowState,
    writes: readonly RecordRow[],
  ): Promise<void> {
    const rev = this.lock.write(() =>
      this.db
        .transaction(() => {
          const last = this.db
            .prepare<[string], { seq: number | null }>(
              'SELECT max(seq) AS seq FROM events WHERE workflow_id = ?',
            )
            .get(workflowId);
          assertRebuiltFromLatest(workflowId, state, last?.seq ?? 0);
          this.db.prepare('DELETE FROM records WHERE workflow_id = ?').run(workflowId);
          this.db.prepare('DELETE FROM workflows WHERE id = ?').run(workflowId);
          return this.writer.write({ workflowId, expectedVersion: 0, events: [], state, writes }, 0);
        })
        .immediate(),
    );
    this.cache.set(workflowId, rev, state);
  }

  async deleteWorkflow(workflowId: string): Promise<void> {
    this.lock.write(() =>
      this.db
        .transaction(() => {
          this.writer.raiseFloor();
          for (const table of ['events', 'records', 'live_states', 'workflow_leases'])
            this.db.prepare(`DELETE FROM ${table} WHERE workflow_id = ?`).run(workflowId);
          this.db.prepare('DELETE FROM workflows WHERE id = ?').run(workflowId);
        })
        .immediate(),
    );
    this.cache.delete(workflowId);
  }

  async listWorkflowIds(): Promise<string[]> {
    return this.stmts.ids.all().map((r) => r.id);
  }

  /** SQLite's own consistency check (crash tests). */
  integrityCheck(): string {
    return String(this.db.pragma('integrity_check', { simple: true }));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
