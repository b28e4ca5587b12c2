import type pg from 'pg';
import type { ExecutorPatch, ExecutorRegistry, ExecutorRow, ExecutorStatus } from '../executor-registry.js';
import { toBatonError } from './connection.js';

const columns = /^[a-z_]+$/;

type PgRow = Omit<ExecutorRow, 'pid'> & { pid: number | string | null };
const fromDb = (r: PgRow): ExecutorRow => ({ ...r, pid: r.pid === null ? null : Number(r.pid) });

/**
 * `executors_running` on PostgreSQL: the same contract as on SQLite. The compare-and-set writes (claim an
 * execution, save a resume token) are single conditional UPDATEs, so two controllers racing for one session
 * cannot both win, whichever Baton process they run in.
 */
export class PostgresExecutors implements ExecutorRegistry {
  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  private async run(sql: string, params: unknown[], what: string): Promise<pg.QueryResult<PgRow>> {
    try {
      return await this.pool.query<PgRow>(sql, params);
    } catch (e) {
      throw toBatonError(e, this.url, what);
    }
  }

  async insert(row: ExecutorRow): Promise<void> {
    const keys = Object.keys(row).filter((k) => columns.test(k));
    await this.run(
      `INSERT INTO executors_running (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
      keys.map((k) => row[k as keyof ExecutorRow]),
      'registering an executor',
    );
  }

  async get(id: string): Promise<ExecutorRow | null> {
    const r = await this.run('SELECT * FROM executors_running WHERE id = $1', [id], 'reading an executor');
    return r.rows[0] ? fromDb(r.rows[0]) : null;
  }

  async list(
    filter: { status?: readonly ExecutorStatus[]; workflowId?: string } = {},
  ): Promise<ExecutorRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status) {
      params.push([...filter.status]);
      where.push(`status = ANY($${params.length})`);
    }
    if (filter.workflowId) {
      params.push(filter.workflowId);
      where.push(`workflow_id = $${params.length}`);
    }
    const sql = `SELECT * FROM executors_running${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`;
    return (await this.run(sql, params, 'listing executors')).rows.map(fromDb);
  }

  private updateSql(id: string, patch: ExecutorPatch): [string, unknown[]] | null {
    const keys = Object.keys(patch).filter((k) => columns.test(k));
    if (keys.length === 0) return null;
    const params: unknown[] = keys.map((k) => patch[k as keyof ExecutorPatch]);
    params.push(id);
    return [
      `UPDATE executors_running SET ${keys.map((k, i) => `${k} = $${i + 1}`).join(', ')} WHERE id = $${params.length}`,
      params,
    ];
  }

  async update(id: string, patch: ExecutorPatch): Promise<void> {
    const q = this.updateSql(id, patch);
    if (q) await this.run(q[0], q[1], 'updating an executor');
  }

  async updateMany(patches: readonly { id: string; patch: ExecutorPatch }[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw toBatonError(e, this.url, 'updating executors');
    }
    try {
      await client.query('BEGIN');
      for (const { id, patch } of patches) {
        const q = this.updateSql(id, patch);
        if (q) await client.query(q[0], q[1]);
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw toBatonError(e, this.url, 'updating executors');
    } finally {
      client.release();
    }
  }

  async claimExecution(id: string, expected: string | null, next: string, owner: string, at: string) {
    const r = await this.run(
      `UPDATE executors_running SET execution_id = $1, owner = $2, status = 'starting', updated_at = $3,
         last_seen_at = $3 WHERE id = $4 AND execution_id IS NOT DISTINCT FROM $5`,
      [next, owner, at, id, expected],
      'claiming an executor',
    );
    return r.rowCount === 1;
  }

  async saveToken(id: string, executionId: string, token: string, at: string) {
    const r = await this.run(
      'UPDATE executors_running SET resume_token = $1, updated_at = $2 WHERE id = $3 AND execution_id = $4',
      [token, at, id, executionId],
      'saving a resume token',
    );
    return r.rowCount === 1;
  }

  async heartbeat(id: string, at: string): Promise<void> {
    await this.run('UPDATE executors_running SET last_seen_at = $1 WHERE id = $2', [at, id], 'heartbeat');
  }
}
