import type pg from 'pg';
import { migrations } from '../migrations.js';
import { checkAnswers, createPool, toBatonError, type PostgresOptions } from './connection.js';

/** Any constant works; it only has to be the same in every Baton process. */
const MIGRATION_LOCK = 0x6261746f6e; // "baton"

/**
 * Applies the pending steps of the one migration list, each in its own transaction and recorded in
 * `schema_migrations`. A session-level advisory lock makes concurrent migrators (several processes starting at
 * once) take turns: the second one finds the work done.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const done = new Set(
        (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
          (r) => r.version,
        ),
      );
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.postgres);
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
            [m.version, m.name, new Date().toISOString()],
          );
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK');
          throw e;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** A pool on `url` with the schema migrated; when the database cannot be opened the pool is closed again. */
export async function openMigratedPool(url: string, options: PostgresOptions): Promise<pg.Pool> {
  if (options.answerWithinMs !== undefined) await checkAnswers(url, options.answerWithinMs);
  const pool = createPool(url, options);
  try {
    await migratePostgres(pool);
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw toBatonError(e, url, 'opening the database');
  }
  return pool;
}
