import type pg from 'pg';
import type { WorkFilter } from '../../core/index.js';
import { leaseFromRow, type LeaseDbRow, type LeaseHolder } from '../lease-registry.js';
import {
  filterSql,
  QUEUE_ORDER,
  skipSql,
  queueEntryFromRow,
  REFUSAL_ORDER,
  type ClaimedWork,
  type QueueDbRow,
  type QueueEntry,
  type RefusalDbRow,
  type SubmitInput,
  type WorkQueue,
} from '../work-queue.js';
import { toBatonError } from './connection.js';
import { acquireQuery, NOW } from './postgres-leases.js';

type Candidate = QueueDbRow & { [K in keyof LeaseDbRow as `lease_${K}`]: LeaseDbRow[K] | null };

/**
 * `work_queue` on PostgreSQL. Claiming is one transaction: `SELECT ... FOR UPDATE OF q SKIP LOCKED` picks queued rows
 * whose lease is free or expired by the server's clock (rows another worker is claiming right now are skipped, not
 * waited for), the lease of each is taken compare-and-set on its previous owner, and the row records its claimer.
 */
export class PostgresWorkQueue implements WorkQueue {
  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  private async run<R extends pg.QueryResultRow>(sql: string, params: unknown[], what: string) {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (e) {
      throw toBatonError(e, this.url, what);
    }
  }

  async submit(i: SubmitInput): Promise<QueueEntry> {
    // submitted again (once fixed): every worker tries it again (one statement: the CTE deletes as the row is written)
    const r = await this.run<QueueDbRow>(
      `WITH forget AS (DELETE FROM work_refusals WHERE workflow_id = $1)
       INSERT INTO work_queue AS q (workflow_id, state, priority, worktree, label, profile, submitted_at, submitted_by)
       VALUES ($1, 'queued', $2, $3, $4, $5, ${NOW}, $6)
       ON CONFLICT (workflow_id) DO UPDATE SET state = 'queued', priority = excluded.priority,
         worktree = excluded.worktree, label = excluded.label, profile = excluded.profile,
         submitted_at = excluded.submitted_at, submitted_by = excluded.submitted_by, finished_at = NULL, outcome = NULL
       RETURNING q.*`,
      [i.workflow_id, i.priority, i.worktree, i.label, JSON.stringify(i.profile), i.submitted_by],
      'submitting work',
    );
    return queueEntryFromRow(r.rows[0] as QueueDbRow);
  }

  async claim(
    holder: LeaseHolder,
    ttlMs: number,
    filter: WorkFilter,
    limit: number,
    skip: readonly string[] = [],
  ): Promise<ClaimedWork[]> {
    if (limit <= 0) return [];
    const where = filterSql(filter, (n) => `$${n}`, 2);
    const left = skipSql(skip, (n) => `$${n}`, 2 + where.params.length);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw toBatonError(e, this.url, 'claiming work');
    }
    try {
      await client.query('BEGIN');
      const picked = await client.query<Candidate>(
        `SELECT q.*, l.workflow_id AS lease_workflow_id, l.owner AS lease_owner, l.host AS lease_host,
           l.pid AS lease_pid, l.pid_start_time AS lease_pid_start_time, l.kind AS lease_kind,
           l.command AS lease_command, l.acquired_at AS lease_acquired_at, l.heartbeat_at AS lease_heartbeat_at,
           l.expires_at AS lease_expires_at, ${NOW} AS lease_now
         FROM work_queue q LEFT JOIN workflow_leases l ON l.workflow_id = q.workflow_id
         WHERE q.state = 'queued' AND (l.workflow_id IS NULL OR l.expires_at <= ${NOW}) AND ${where.sql} AND ${left.sql}
         ORDER BY ${QUEUE_ORDER}
         LIMIT $1
         FOR UPDATE OF q SKIP LOCKED`,
        [limit, ...where.params, ...left.params],
      );
      const out: ClaimedWork[] = [];
      for (const c of picked.rows) {
        const previous = c.lease_owner ? leaseFromRow(leaseOf(c)) : null;
        const q = acquireQuery(
          c.workflow_id,
          holder,
          ttlMs,
          previous ? { replace: { owner: previous.owner, onlyIfExpired: true } } : {},
        );
        // A lease taken meanwhile (a `baton run` started, the old owner renewed just in time): not ours.
        const taken = await client.query(q.text, q.values);
        if (!taken.rowCount) continue;
        const row = await client.query<QueueDbRow>(
          `UPDATE work_queue SET claimed_by = $2, claimed_at = ${NOW}, attempts = attempts + 1, outcome = NULL
           WHERE workflow_id = $1 RETURNING *`,
          [c.workflow_id, holder.owner],
        );
        // the claimer tries again: its own refusal no longer stands (the other workers' do)
        await client.query('DELETE FROM work_refusals WHERE workflow_id = $1 AND owner = $2', [
          c.workflow_id,
          holder.owner,
        ]);
        const refusals = await client.query<RefusalDbRow>(
          `SELECT * FROM work_refusals WHERE workflow_id = $1 ORDER BY ${REFUSAL_ORDER}`,
          [c.workflow_id],
        );
        out.push({ entry: queueEntryFromRow(row.rows[0] as QueueDbRow, refusals.rows), previous });
      }
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw toBatonError(e, this.url, 'claiming work');
    } finally {
      client.release();
    }
  }

  async finish(workflowId: string, owner: string | null, outcome: string): Promise<boolean> {
    // done: the refusals go with the row's queued life (one statement: deleted only when the row is finished)
    const r = await this.run(
      `WITH done AS (
         UPDATE work_queue SET state = 'done', finished_at = ${NOW}, outcome = $3
         WHERE workflow_id = $1 AND (claimed_by = $2 OR $2::text IS NULL) AND state = 'queued'
         RETURNING workflow_id),
       forget AS (DELETE FROM work_refusals WHERE workflow_id IN (SELECT workflow_id FROM done))
       SELECT workflow_id FROM done`,
      [workflowId, owner, outcome],
      'finishing work',
    );
    return r.rowCount === 1;
  }

  async refuse(workflowId: string, owner: string, outcome: string): Promise<boolean> {
    const r = await this.run(
      `INSERT INTO work_refusals (workflow_id, owner, reason, refused_at)
         SELECT workflow_id, claimed_by, $3, ${NOW} FROM work_queue
         WHERE workflow_id = $1 AND claimed_by = $2 AND state = 'queued'
       ON CONFLICT (workflow_id, owner) DO UPDATE SET reason = excluded.reason, refused_at = excluded.refused_at`,
      [workflowId, owner, outcome],
      'recording why work could not start',
    );
    return r.rowCount === 1;
  }

  /** The refusals of one workflow, or of every one (null). */
  private async refusals(workflowId: string | null): Promise<RefusalDbRow[]> {
    const r = await this.run<RefusalDbRow>(
      `SELECT * FROM work_refusals WHERE $1::text IS NULL OR workflow_id = $1 ORDER BY ${REFUSAL_ORDER}`,
      [workflowId],
      'reading the work queue',
    );
    return r.rows;
  }

  async get(workflowId: string): Promise<QueueEntry | null> {
    const r = await this.run<QueueDbRow>(
      'SELECT * FROM work_queue WHERE workflow_id = $1',
      [workflowId],
      'reading the work queue',
    );
    return r.rows[0] ? queueEntryFromRow(r.rows[0], await this.refusals(workflowId)) : null;
  }

  async list(): Promise<QueueEntry[]> {
    const r = await this.run<QueueDbRow>(
      `SELECT * FROM work_queue q
       ORDER BY q.state = 'done', CASE WHEN q.state = 'done' THEN -q.finished_at END, ${QUEUE_ORDER}`,
      [],
      'reading the work queue',
    );
    const refusals = await this.refusals(null);
    return r.rows.map((row) => queueEntryFromRow(row, refusals));
  }
}

function leaseOf(c: Candidate): LeaseDbRow {
  return {
    workflow_id: c.workflow_id,
    owner: c.lease_owner ?? '',
    host: c.lease_host ?? '',
    pid: c.lease_pid ?? 0,
    pid_start_time: c.lease_pid_start_time,
    kind: c.lease_kind ?? '',
    command: c.lease_command ?? '',
    acquired_at: c.lease_acquired_at ?? 0,
    heartbeat_at: c.lease_heartbeat_at ?? 0,
    expires_at: c.lease_expires_at ?? 0,
    now: c.lease_now ?? 0,
  };
}
