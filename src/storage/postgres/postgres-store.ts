import type pg from 'pg';
import {
  conflict,
  type BatonEvent,
  type RecordKind,
  type RecordRow,
  type WorkflowState,
} from '../../core/index.js';
import {
  assertRebuiltFromLatest,
  eventFromRow,
  recordFromRow,
  type EventRow,
  type RecordDbRow,
} from '../rows.js';
import type { CommitBatch, LiveState, RecordQuery, Store, StoredEvent, WorkflowFilter } from '../store.js';
import { queryRows, redactUrl, toBatonError, type PostgresOptions } from './connection.js';
import { openMigratedPool } from './migrate.js';
import { PostgresExecutors } from './postgres-executors.js';
import { PostgresLeases } from './postgres-leases.js';
import { PostgresWorkers } from './postgres-workers.js';
import { PostgresWorkQueue } from './postgres-work-queue.js';
import { POSITION_EVENTS_SQL } from './event-positioner.js';
import { commitStatement, fitsOneStatement } from './commit-statement.js';
import { insertEvents, upsertRecords } from './sql.js';

type PgEventRow = Omit<EventRow, 'position'> & { position: string };

const toEvent = (r: PgEventRow): StoredEvent => ({
  ...eventFromRow({ ...r, position: 0 }),
  position: Number(r.position),
});

/**
 * The shared store: many Baton processes on one PostgreSQL database. Optimistic concurrency exactly as in SQLite
 * (a commit names the version it decided on; the workflow row's `version` check refuses a stale one). Writers
 * take no store-wide lock: the store-wide `position` that live subscribers follow is handed out after commit, in
 * commit order, by the positioner every follower runs before it reads (event-positioner.ts says why no follower
 * can miss or reorder an event).
 */
export class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  readonly location: string;
  readonly executors: PostgresExecutors;
  readonly leases: PostgresLeases;
  readonly workQueue: PostgresWorkQueue;
  readonly workers: PostgresWorkers;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {
    this.location = redactUrl(url);
    this.executors = new PostgresExecutors(pool, url);
    this.leases = new PostgresLeases(pool, url);
    this.workQueue = new PostgresWorkQueue(pool, url);
    this.workers = new PostgresWorkers(pool, url);
  }

  static async open(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
    return new PostgresStore(await openMigratedPool(url, options), url);
  }

  private query<R extends pg.QueryResultRow>(
    sql: string,
    params: unknown[],
    what: string,
    name?: string,
  ): Promise<R[]> {
    return queryRows<R>(this.pool, this.url, sql, params, what, name);
  }

  /** Runs `work` in one transaction on one connection; any failure rolls it back whole. */
  private async transaction(what: string, work: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw toBatonError(e, this.url, what);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (e) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw toBatonError(e, this.url, what);
    } finally {
      client.release(broken);
    }
  }

  /**
   * Writes one batch with `commitStatement` on `c` (a pool: the statement commits on its own; a client in a
   * transaction: it commits with the rest), then what did not fit in it. A refused version writes nothing.
   */
  private async writeBatch(c: pg.Pool | pg.PoolClient, b: CommitBatch): Promise<void> {
    const { name, text, values, rest } = commitStatement(b);
    const r = await c.query<{ n: number }>({ name, text, values });
    if (r.rows[0]?.n !== 1) {
      if (b.expectedVersion === 0)
        throw conflict(`workflow ${b.workflowId} already exists`, { workflow_id: b.workflowId });
      const cur = await c.query<{ version: number }>('SELECT version FROM workflows WHERE id = $1', [
        b.workflowId,
      ]);
      const current = cur.rows[0]?.version;
      throw conflict(
        `workflow ${b.workflowId} changed while this command ran (expected version ${b.expectedVersion}, found ${current ?? 'none'}); reload and try again`,
        {
          workflow_id: b.workflowId,
          expected_version: b.expectedVersion,
          current_version: current ?? null,
        },
      );
    }
    // Nothing is left unless the batch was too big for one statement; then `c` is a transaction's client.
    await insertEvents(c, rest.events);
    await upsertRecords(c, rest.writes);
  }

  async commit(batch: CommitBatch): Promise<void> {
    await this.commitMany([batch]);
  }

  /** One batch that fits one statement is one round trip, committing on its own; anything else one transaction. */
  async commitMany(batches: readonly CommitBatch[]): Promise<void> {
    const only = batches.length === 1 ? batches[0] : undefined;
    if (only && fitsOneStatement(only)) {
      try {
        await this.writeBatch(this.pool, only);
      } catch (e) {
        throw toBatonError(e, this.url, 'commit');
      }
      return;
    }
    if (!batches.length) return;
    await this.transaction('commit', async (c) => {
      for (const b of batches) await this.writeBatch(c, b);
    });
  }

  async loadState(workflowId: string): Promise<WorkflowState | null> {
    const rows = await this.query<{ state: string }>(
      'SELECT state FROM workflows WHERE id = $1',
      [workflowId],
      'load',
      'baton-load-state',
    );
    return rows[0] ? (JSON.parse(rows[0].state) as WorkflowState) : null;
  }

  async listWorkflows(filter: WorkflowFilter = {}): Promise<WorkflowState[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (v: unknown) => (params.push(v), `$${params.length}`);
    if (filter.status?.length) where.push(`status = ANY(${param([...filter.status])})`);
    if (filter.worktree !== undefined) where.push(`worktree = ${param(filter.worktree)}`);
    if (filter.updatedBefore !== undefined) where.push(`updated_at < ${param(filter.updatedBefore)}`);
    const sql = `SELECT state FROM workflows ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id LIMIT ${param(filter.limit ?? null)}`;
    const rows = await this.query<{ state: string }>(sql, params, 'list workflows');
    return rows.map((r) => JSON.parse(r.state) as WorkflowState);
  }

  async readEvents(workflowId: string, afterSeq = 0, limit?: number): Promise<BatonEvent[]> {
    const rows = await this.query<PgEventRow>(
      'SELECT * FROM events WHERE workflow_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [workflowId, afterSeq, limit !== undefined && limit >= 0 ? limit : null],
      'read events',
    );
    return rows.map((r) => eventFromRow({ ...r, position: 0 }));
  }

  async readEventsSince(position: number, limit: number, workflowId?: string): Promise<StoredEvent[]> {
    await this.query(POSITION_EVENTS_SQL, [], 'position new events');
    const rows = workflowId
      ? await this.query<PgEventRow>(
          'SELECT * FROM events WHERE position > $1 AND workflow_id = $2 ORDER BY position LIMIT $3',
          [position, workflowId, limit],
          'read events',
        )
      : await this.query<PgEventRow>(
          'SELECT * FROM events WHERE position > $1 ORDER BY position LIMIT $2',
          [position, limit],
          'read events',
        );
    return rows.map(toEvent);
  }

  async getRecord(workflowId: string, kind: RecordKind, id: string): Promise<RecordRow | null> {
    const rows = await this.query<RecordDbRow>(
      'SELECT * FROM records WHERE workflow_id = $1 AND kind = $2 AND id = $3',
      [workflowId, kind, id],
      'read a record',
    );
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  async findSnapshot(snapshotId: string): Promise<RecordRow | null> {
    const rows = await this.query<RecordDbRow>(
      "SELECT * FROM records WHERE kind = 'snapshot' AND id = $1 LIMIT 1",
      [snapshotId],
      'find a snapshot',
    );
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  async listRecords(workflowId: string, kind: RecordKind, q: RecordQuery = {}): Promise<RecordRow[]> {
    const through = q.createdThrough !== undefined ? 'AND created_at <= $3' : 'AND $3::text IS NULL';
    const sql = `SELECT * FROM records WHERE workflow_id = $1 AND kind = $2 ${through} ORDER BY created_at ${q.newestFirst ? 'DESC' : 'ASC'}, seq, id LIMIT $4`;
    const rows = await this.query<RecordDbRow>(
      sql,
      [workflowId, kind, q.createdThrough ?? null, q.limit !== undefined && q.limit >= 0 ? q.limit : null],
      'list records',
    );
    return rows.map(recordFromRow);
  }

  async saveLiveState(live: LiveState): Promise<void> {
    await this.query(
      `INSERT INTO live_states (workflow_id, saved_at, trigger, version, data) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workflow_id) DO UPDATE SET saved_at = excluded.saved_at, trigger = excluded.trigger, version = excluded.version, data = excluded.data`,
      [live.workflow_id, live.saved_at, live.trigger, live.version, JSON.stringify(live.data)],
      'save the live state',
    );
  }

  async loadLiveState(workflowId: string): Promise<LiveState | null> {
    const rows = await this.query<Omit<LiveState, 'data'> & { data: string }>(
      'SELECT * FROM live_states WHERE workflow_id = $1',
      [workflowId],
      'load the live state',
    );
    const r = rows[0];
    return r ? { ...r, data: JSON.parse(r.data) as unknown } : null;
  }

  async replaceProjection(
    workflowId: string,
    state: WorkflowState,
    writes: readonly RecordRow[],
  ): Promise<void> {
    await this.transaction('rebuild', async (c) => {
      // Lock the row first, so a concurrent commit waits for the rebuilt tables instead of interleaving.
      await c.query('SELECT 1 FROM workflows WHERE id = $1 FOR UPDATE', [workflowId]);
      const last = await c.query<{ seq: number | null }>(
        'SELECT max(seq) AS seq FROM events WHERE workflow_id = $1',
        [workflowId],
      );
      assertRebuiltFromLatest(workflowId, state, last.rows[0]?.seq ?? 0);
      await c.query('DELETE FROM records WHERE workflow_id = $1', [workflowId]);
      await c.query('DELETE FROM workflows WHERE id = $1', [workflowId]);
      await this.writeBatch(c, { workflowId, expectedVersion: 0, events: [], state, writes });
    });
  }

  async deleteWorkflow(workflowId: string): Promise<void> {
    await this.transaction('delete', async (c) => {
      for (const table of ['events', 'records', 'live_states', 'workflow_leases'])
        await c.query(`DELETE FROM ${table} WHERE workflow_id = $1`, [workflowId]);
      await c.query('DELETE FROM workflows WHERE id = $1', [workflowId]);
    });
  }

  async listWorkflowIds(): Promise<string[]> {
    const rows = await this.query<{ id: string }>(
      'SELECT id FROM workflows ORDER BY created_at, id',
      [],
      'list workflows',
    );
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
