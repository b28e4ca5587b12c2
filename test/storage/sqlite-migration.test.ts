import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/storage/migrations.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { createWorkflow, loaded, historyBatch } from '../conformance/fixtures.js';
import { tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

/** A database as version 4 left it: events under AUTOINCREMENT, the newest ones deleted (sqlite_sequence ahead). */
function versionFourDatabase(file: string): void {
  const db = new Database(file);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of migrations.filter((m) => m.version <= 4)) {
    db.exec(m.sqlite);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01');
  }
  const insert = db.prepare(
    "INSERT INTO events (workflow_id, seq, type, at, actor, session_number, task_id, v, data) VALUES (?, ?, 'history.recorded', '2026-01-01', 'user', NULL, NULL, 1, '{}')",
  );
  for (let seq = 1; seq <= 5; seq++) insert.run('wf-old', seq);
  db.prepare('DELETE FROM events WHERE seq > 3').run();
  db.close();
}

describe('SQLite migration 5 (positions without AUTOINCREMENT)', () => {
  it('keeps every event and its position, and never hands out a position AUTOINCREMENT had used', async () => {
    const file = join(tempDir('baton-migrate-'), 'baton.db');
    versionFourDatabase(file);
    const store = new SqliteStore(file);
    try {
      const kept = await store.readEventsSince(0, 100);
      expect(kept.map((e) => [e.position, e.seq])).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
      ]);
      const wf = await createWorkflow(makeService(store));
      await store.commit(historyBatch(await loaded(store, wf.id), 1));
      const fresh = await store.readEventsSince(3, 100);
      expect(fresh[0]!.position).toBe(6);
      expect(fresh.map((e) => e.position)).toEqual(fresh.map((_, i) => 6 + i));
      expect(store.integrityCheck()).toBe('ok');
    } finally {
      await store.close();
    }
  });
});
