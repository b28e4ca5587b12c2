import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/storage/migrations.js';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/store.js';
import { tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

/** Rows as version 10 kept a refusal: on the queued row itself, as its outcome, by its last claimer. */
const ROWS = `
  INSERT INTO work_queue (workflow_id, state, priority, worktree, label, profile, submitted_at, submitted_by,
    claimed_by, claimed_at, attempts, finished_at, outcome) VALUES
  ('wf-refused', 'queued', 0, '/srv/work/a', NULL, '{"agent":"claude-code","agent_bin":null,"context_window":null,"max_sessions":null}',
    1000, 'me', 'box:42', 2000, 1, NULL, 'pid 42 on box could not start it: claude was not found'),
  ('wf-done', 'done', 0, '/srv/work/b', NULL, '{"agent":"claude-code","agent_bin":null,"context_window":null,"max_sessions":null}',
    1000, 'me', 'box:42', 2000, 1, 3000, 'completed');`;

/** A store at version 10 with ROWS, by each backend's own driver, then opened by Baton (which migrates it). */
const backends: { name: string; at10: () => Promise<Store> }[] = [
  {
    name: 'sqlite',
    at10: async () => {
      const file = join(tempDir('baton-refusals-'), 'baton.db');
      const db = new Database(file);
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      for (const m of migrations.filter((m) => m.version <= 10)) {
        db.exec(m.sqlite);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01');
      }
      db.exec(ROWS);
      db.close();
      return new SqliteStore(file);
    },
  },
  {
    name: 'postgres',
    at10: async () => {
      const url = await freshPostgresUrl();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(
          'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
        );
        for (const m of migrations.filter((x) => x.version <= 10)) {
          await c.query(m.postgres);
          await c.query("INSERT INTO schema_migrations VALUES ($1, $2, '')", [m.version, m.name]);
        }
        await c.query(ROWS);
      } finally {
        await c.end();
      }
      return PostgresStore.open(url);
    },
  },
];

describe.each(backends)('migration 11 (one refusal per worker) on $name', ({ at10 }) => {
  it('moves a refusal kept on a queued row to its worker, and leaves a done row as it ended', async () => {
    const store = await at10();
    try {
      const q = store.workQueue!;
      expect(await q.get('wf-refused')).toMatchObject({
        state: 'queued',
        outcome: 'pid 42 on box could not start it: claude was not found',
        refusals: [
          {
            owner: 'box:42',
            reason: 'pid 42 on box could not start it: claude was not found',
            at: new Date(2000).toISOString(),
          },
        ],
      });
      expect(await q.get('wf-done')).toMatchObject({ state: 'done', outcome: 'completed', refusals: [] });
    } finally {
      await store.close();
    }
  });
});
