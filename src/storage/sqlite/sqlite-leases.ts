import type Database from 'better-sqlite3';
import {
  leaseFromRow,
  type AcquireOptions,
  type Lease,
  type LeaseDbRow,
  type LeaseHolder,
  type LeaseRegistry,
} from '../lease-registry.js';
import { BatonError } from '../../core/index.js';
import type { WriteLock } from './write-lock.js';

/** The store's clock in milliseconds: SQLite's own `now`, the same for every process on this file. */
export const NOW = "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)";

/**
 * `workflow_leases` on SQLite. Each write is one statement inside an immediate transaction (the file's write lock),
 * so two processes asking for one lease at once cannot both get it.
 */
export class SqliteLeases implements LeaseRegistry {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(private readonly lock: WriteLock) {
    const db = (this.db = lock.db);
    this.stmts = {
      upsert: db.prepare(
        `INSERT INTO workflow_leases (workflow_id, owner, host, pid, pid_start_time, kind, command, acquired_at,
           heartbeat_at, expires_at)
         SELECT @workflow_id, @owner, @host, @pid, @pid_start_time, @kind, @command, t.now, t.now, t.now + @ttl
           FROM (SELECT ${NOW} AS now) t WHERE true
         ON CONFLICT (workflow_id) DO UPDATE SET
           acquired_at = CASE WHEN workflow_leases.owner = excluded.owner THEN workflow_leases.acquired_at
                              ELSE excluded.acquired_at END,
           owner = excluded.owner, host = excluded.host, pid = excluded.pid, pid_start_time = excluded.pid_start_time,
           kind = excluded.kind, command = excluded.command, heartbeat_at = excluded.heartbeat_at,
           expires_at = excluded.expires_at
         WHERE workflow_leases.owner = excluded.owner
            OR (workflow_leases.owner = @replace
                AND (@only_expired = 0 OR workflow_leases.expires_at <= excluded.heartbeat_at))`,
      ),
      get: db.prepare<[string], LeaseDbRow>(
        `SELECT *, ${NOW} AS now FROM workflow_leases WHERE workflow_id = ?`,
      ),
      renew: db.prepare(
        `UPDATE workflow_leases SET heartbeat_at = ${NOW}, expires_at = ${NOW} + @ttl
         WHERE workflow_id = @workflow_id AND owner = @owner`,
      ),
      release: db.prepare('DELETE FROM workflow_leases WHERE workflow_id = ? AND owner = ?'),
      list: db.prepare<[], LeaseDbRow>(
        `SELECT *, ${NOW} AS now FROM workflow_leases ORDER BY acquired_at, workflow_id`,
      ),
    };
  }

  async acquire(
    workflowId: string,
    holder: LeaseHolder,
    ttlMs: number,
    opts: AcquireOptions = {},
  ): Promise<{ acquired: boolean; lease: Lease }> {
    return this.lock.write(() =>
      this.db.transaction(() => this.acquireNow(workflowId, holder, ttlMs, opts)).immediate(),
    );
  }

  /** `acquire` inside a transaction the caller holds (the work queue's claim). */
  acquireNow(
    workflowId: string,
    holder: LeaseHolder,
    ttlMs: number,
    opts: AcquireOptions = {},
  ): { acquired: boolean; lease: Lease } {
    const r = this.stmts.upsert.run({
      workflow_id: workflowId,
      ...holder,
      ttl: Math.max(0, Math.round(ttlMs)),
      replace: opts.replace?.owner ?? null,
      only_expired: opts.replace?.onlyIfExpired ? 1 : 0,
    });
    const row = this.stmts.get.get(workflowId);
    if (!row)
      throw new BatonError('internal', `the lease of ${workflowId} vanished inside its own transaction`);
    return { acquired: r.changes === 1, lease: leaseFromRow(row) };
  }

  async renew(workflowId: string, owner: string, ttlMs: number): Promise<Lease | null> {
    return this.lock.write(() =>
      this.db
        .transaction(() => {
          const r = this.stmts.renew.run({
            workflow_id: workflowId,
            owner,
            ttl: Math.max(0, Math.round(ttlMs)),
          });
          if (r.changes !== 1) return null;
          const row = this.stmts.get.get(workflowId);
          return row ? leaseFromRow(row) : null;
        })
        .immediate(),
    );
  }

  async release(workflowId: string, owner: string): Promise<boolean> {
    return this.lock.write(() => this.stmts.release.run(workflowId, owner)).changes === 1;
  }

  async get(workflowId: string): Promise<Lease | null> {
    const row = this.stmts.get.get(workflowId);
    return row ? leaseFromRow(row) : null;
  }

  async list(): Promise<Lease[]> {
    return this.stmts.list.all().map(leaseFromRow);
  }
}
