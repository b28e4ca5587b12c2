import type pg from 'pg';
import {
  leaseFromRow,
  type AcquireOptions,
  type Lease,
  type LeaseDbRow,
  type LeaseHolder,
  type LeaseRegistry,
} from '../lease-registry.js';
import { toBatonError } from './connection.js';

/** The database server's clock in milliseconds (not the transaction's start: `clock_timestamp()`). */
export const NOW = '(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint';

/**
 * `workflow_leases` on PostgreSQL: the same contract as on SQLite. Taking a lease is one
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE`, so of several workers racing for one workflow exactly one wins,
 * whichever host they run on; expiry is judged by the server's clock alone.
 */
export class PostgresLeases implements LeaseRegistry {
  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  private async run(sql: string, params: unknown[], what: string): Promise<pg.QueryResult<LeaseDbRow>> {
    try {
      return await this.pool.query<LeaseDbRow>(sql, params);
    } catch (e) {
      throw toBatonError(e, this.url, what);
    }
  }

  async acquire(
    workflowId: string,
    holder: LeaseHolder,
    ttlMs: number,
    opts: AcquireOptions = {},
  ): Promise<{ acquired: boolean; lease: Lease }> {
    const q = acquireQuery(workflowId, holder, ttlMs, opts);
    const r = await this.run(q.text, q.values, 'taking a workflow lease');
    const taken = r.rows[0];
    if (taken) return { acquired: true, lease: leaseFromRow(taken) };
    const current = await this.get(workflowId);
    if (current) return { acquired: false, lease: current };
    // Released between the refused write and the read: ask again.
    return this.acquire(workflowId, holder, ttlMs, opts);
  }

  async renew(workflowId: string, owner: string, ttlMs: number): Promise<Lease | null> {
    const r = await this.run(
      `WITH t AS (SELECT ${NOW} AS now)
       UPDATE workflow_leases SET heartbeat_at = t.now, expires_at = t.now + $3 FROM t
       WHERE workflow_id = $1 AND owner = $2
       RETURNING workflow_leases.*, t.now AS now`,
      [workflowId, owner, Math.max(0, Math.round(ttlMs))],
      'renewing a workflow lease',
    );
    return r.rows[0] ? leaseFromRow(r.rows[0]) : null;
  }

  async release(workflowId: string, owner: string): Promise<boolean> {
    const r = await this.run(
      'DELETE FROM workflow_leases WHERE workflow_id = $1 AND owner = $2',
      [workflowId, owner],
      'releasing a workflow lease',
    );
    return r.rowCount === 1;
  }

  async get(workflowId: string): Promise<Lease | null> {
    const r = await this.run(
      `SELECT *, ${NOW} AS now FROM workflow_leases WHERE workflow_id = $1`,
      [workflowId],
      'reading a workflow lease',
    );
    return r.rows[0] ? leaseFromRow(r.rows[0]) : null;
  }

  async list(): Promise<Lease[]> {
    const r = await this.run(
      `SELECT *, ${NOW} AS now FROM workflow_leases ORDER BY acquired_at, workflow_id`,
      [],
      'listing workflow leases',
    );
    return r.rows.map(leaseFromRow);
  }
}

/**
 * The one statement that takes a lease (free, renewed by its holder, or replaced compare-and-set): a row back when
 * it was taken. Run by the registry, and by the work queue inside its claiming transaction.
 */
export function acquireQuery(
  workflowId: string,
  holder: LeaseHolder,
  ttlMs: number,
  opts: AcquireOptions = {},
): { text: string; values: unknown[] } {
  return {
    text: `WITH t AS (SELECT ${NOW} AS now)
     INSERT INTO workflow_leases AS l (workflow_id, owner, host, pid, pid_start_time, kind, command, acquired_at,
       heartbeat_at, expires_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, t.now, t.now, t.now + $8 FROM t
     ON CONFLICT (workflow_id) DO UPDATE SET
       acquired_at = CASE WHEN l.owner = excluded.owner THEN l.acquired_at ELSE excluded.acquired_at END,
       owner = excluded.owner, host = excluded.host, pid = excluded.pid, pid_start_time = excluded.pid_start_time,
       kind = excluded.kind, command = excluded.command, heartbeat_at = excluded.heartbeat_at,
       expires_at = excluded.expires_at
     WHERE l.owner = excluded.owner
        OR (l.owner = $9 AND (NOT $10 OR l.expires_at <= excluded.heartbeat_at))
     RETURNING l.*, (SELECT now FROM t) AS now`,
    values: [
      workflowId,
      holder.owner,
      holder.host,
      holder.pid,
      holder.pid_start_time,
      holder.kind,
      holder.command,
      Math.max(0, Math.round(ttlMs)),
      opts.replace?.owner ?? null,
      opts.replace?.onlyIfExpired === true,
    ],
  };
}
