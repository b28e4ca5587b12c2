import type pg from 'pg';
import type { LeaseHolder } from '../lease-registry.js';
import {
  GONE_WORKER_KEPT_MS,
  workerFromRow,
  type WorkerDbRow,
  type WorkerRegistry,
  type WorkerRow,
} from '../worker-registry.js';
import { toBatonError } from './connection.js';
import { NOW } from './postgres-leases.js';

/** `workers` on PostgreSQL: the same contract as on SQLite, every time by the database server's clock. */
export class PostgresWorkers implements WorkerRegistry {
  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  private async run(sql: string, params: unknown[], what: string): Promise<pg.QueryResult<WorkerDbRow>> {
    try {
      return await this.pool.query<WorkerDbRow>(sql, params);
    } catch (e) {
      throw toBatonError(e, this.url, what);
    }
  }

  async heartbeat(
    holder: LeaseHolder,
    reach: { roots: readonly string[]; labels: readonly string[] },
    ttlMs: number,
  ): Promise<void> {
    await this.run(
      `WITH t AS (SELECT ${NOW} AS now),
       -- rows long gone; never the one written here (one statement must not touch a row twice)
       gone AS (DELETE FROM workers WHERE expires_at < (SELECT now FROM t) - $8 AND owner <> $1)
       INSERT INTO workers (owner, host, pid, command, roots, labels, started_at, heartbeat_at, expires_at)
       SELECT $1, $2, $3, $4, $5, $6, t.now, t.now, t.now + $7 FROM t
       ON CONFLICT (owner) DO UPDATE SET
         host = excluded.host, pid = excluded.pid, command = excluded.command, roots = excluded.roots,
         labels = excluded.labels, heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`,
      [
        holder.owner,
        holder.host,
        holder.pid,
        holder.command,
        JSON.stringify(reach.roots),
        JSON.stringify(reach.labels),
        Math.max(0, Math.round(ttlMs)),
        GONE_WORKER_KEPT_MS,
      ],
      'registering a worker',
    );
  }

  async remove(owner: string): Promise<void> {
    await this.run('DELETE FROM workers WHERE owner = $1', [owner], 'removing a worker');
  }

  async list(): Promise<WorkerRow[]> {
    const r = await this.run(
      `SELECT *, ${NOW} AS now FROM workers ORDER BY started_at, owner`,
      [],
      'listing the workers',
    );
    return r.rows.map(workerFromRow);
  }
}
