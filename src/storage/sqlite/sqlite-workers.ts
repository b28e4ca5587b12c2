import type Database from 'better-sqlite3';
import type { LeaseHolder } from '../lease-registry.js';
import {
  GONE_WORKER_KEPT_MS,
  workerFromRow,
  type WorkerDbRow,
  type WorkerRegistry,
  type WorkerRow,
} from '../worker-registry.js';
import { NOW } from './sqlite-leases.js';
import type { WriteLock } from './write-lock.js';

/** `workers` on SQLite: a heartbeat is one upsert and the removal of rows long gone, in one immediate transaction. */
export class SqliteWorkers implements WorkerRegistry {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(private readonly lock: WriteLock) {
    const db = (this.db = lock.db);
    this.stmts = {
      upsert: db.prepare(
        `INSERT INTO workers (owner, host, pid, command, roots, labels, started_at, heartbeat_at, expires_at)
         SELECT @owner, @host, @pid, @command, @roots, @labels, t.now, t.now, t.now + @ttl
           FROM (SELECT ${NOW} AS now) t WHERE true
         ON CONFLICT (owner) DO UPDATE SET
           host = excluded.host, pid = excluded.pid, command = excluded.command, roots = excluded.roots,
           labels = excluded.labels, heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`,
      ),
      prune: db.prepare(`DELETE FROM workers WHERE expires_at < ${NOW} - ?`),
      remove: db.prepare('DELETE FROM workers WHERE owner = ?'),
      list: db.prepare<[], WorkerDbRow>(`SELECT *, ${NOW} AS now FROM workers ORDER BY started_at, owner`),
    };
  }

  async heartbeat(
    holder: LeaseHolder,
    reach: { roots: readonly string[]; labels: readonly string[] },
    ttlMs: number,
  ): Promise<void> {
    this.lock.write(() =>
      this.db
        .transaction(() => {
          this.stmts.upsert.run({
            owner: holder.owner,
            host: holder.host,
            pid: holder.pid,
            command: holder.command,
            roots: JSON.stringify(reach.roots),
            labels: JSON.stringify(reach.labels),
            ttl: Math.max(0, Math.round(ttlMs)),
          });
          this.stmts.prune.run(GONE_WORKER_KEPT_MS);
        })
        .immediate(),
    );
  }

  async remove(owner: string): Promise<void> {
    this.lock.write(() => this.stmts.remove.run(owner));
  }

  async list(): Promise<WorkerRow[]> {
    return this.stmts.list.all().map(workerFromRow);
  }
}
