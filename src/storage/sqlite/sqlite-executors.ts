import type Database from 'better-sqlite3';
import type { ExecutorPatch, ExecutorRegistry, ExecutorRow, ExecutorStatus } from '../executor-registry.js';
import type { WriteLock } from './write-lock.js';

type DbRow = Omit<ExecutorRow, 'supports_session_resume' | 'supports_workspace_only'> & {
  supports_session_resume: number;
  supports_workspace_only: number;
};

const fromDb = (r: DbRow): ExecutorRow => ({
  ...r,
  supports_session_resume: r.supports_session_resume === 1,
  supports_workspace_only: r.supports_workspace_only === 1,
});

const toDb = <T extends Partial<ExecutorRow>>(r: T) => {
  const out: Record<string, unknown> = { ...r };
  for (const k of ['supports_session_resume', 'supports_workspace_only'] as const)
    if (typeof r[k] === 'boolean') out[k] = r[k] ? 1 : 0;
  return out;
};

const columns = /^[a-z_]+$/;

/** `executors_running` on SQLite (the same file as the event log). */
export class SqliteExecutors implements ExecutorRegistry {
  private readonly db: Database.Database;

  constructor(private readonly lock: WriteLock) {
    this.db = lock.db;
  }

  async insert(row: ExecutorRow): Promise<void> {
    const keys = Object.keys(row);
    const insert = this.db.prepare(
      `INSERT INTO executors_running (${keys.join(', ')}) VALUES (${keys.map((k) => '@' + k).join(', ')})`,
    );
    this.lock.write(() => insert.run(toDb(row)));
  }

  async get(id: string): Promise<ExecutorRow | null> {
    const r = this.db.prepare<[string], DbRow>('SELECT * FROM executors_running WHERE id = ?').get(id);
    return r ? fromDb(r) : null;
  }

  async list(
    filter: { status?: readonly ExecutorStatus[]; workflowId?: string } = {},
  ): Promise<ExecutorRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status) {
      where.push(`status IN (${filter.status.map(() => '?').join(', ') || "''"})`);
      params.push(...filter.status);
    }
    if (filter.workflowId) {
      where.push('workflow_id = ?');
      params.push(filter.workflowId);
    }
    const sql = `SELECT * FROM executors_running${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`;
    return this.db
      .prepare<unknown[], DbRow>(sql)
      .all(...params)
      .map(fromDb);
  }

  async update(id: string, patch: ExecutorPatch): Promise<void> {
    const keys = Object.keys(patch).filter((k) => columns.test(k));
    if (keys.length === 0) return;
    const update = this.db.prepare(
      `UPDATE executors_running SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`,
    );
    this.lock.write(() => update.run({ ...toDb(patch), id }));
  }

  async updateMany(patches: readonly { id: string; patch: ExecutorPatch }[]): Promise<void> {
    const cache = new Map<string, Database.Statement>();
    const updateAll = this.db.transaction(() => {
      for (const { id, patch } of patches) {
        const keys = Object.keys(patch).filter((k) => columns.test(k));
        if (keys.length === 0) continue;
        const sql = `UPDATE executors_running SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`;
        let stmt = cache.get(sql);
        if (!stmt) cache.set(sql, (stmt = this.db.prepare(sql)));
        stmt.run({ ...toDb(patch), id });
      }
    });
    // immediate: the lock taken before the first update, never refused between two of them
    this.lock.write(() => updateAll.immediate());
  }

  async claimExecution(id: string, expected: string | null, next: string, owner: string, at: string) {
    const claim = this.db.prepare(
      `UPDATE executors_running SET execution_id = @next, owner = @owner, status = 'starting', updated_at = @at,
         last_seen_at = @at WHERE id = @id AND execution_id IS @expected`,
    );
    return this.lock.write(() => claim.run({ id, expected, next, owner, at })).changes === 1;
  }

  async saveToken(id: string, executionId: string, token: string, at: string) {
    const save = this.db.prepare(
      'UPDATE executors_running SET resume_token = ?, updated_at = ? WHERE id = ? AND execution_id = ?',
    );
    return this.lock.write(() => save.run(token, at, id, executionId)).changes === 1;
  }

  async heartbeat(id: string, at: string): Promise<void> {
    const beat = this.db.prepare('UPDATE executors_running SET last_seen_at = ? WHERE id = ?');
    this.lock.write(() => beat.run(at, id));
  }
}
