import type Database from 'better-sqlite3';
import { migrations } from '../migrations.js';

/** Applies the pending steps of the one migration list in one write transaction, recorded in `schema_migrations`. */
export function migrateSqlite(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = () =>
    new Set(
      db
        .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
        .all()
        .map((r) => r.version),
    );
  // a database already up to date is not write-locked to find that out: a command that only reads then never waits
  // for another process's write transaction (WAL lets readers through it)
  const before = applied();
  if (migrations.every((m) => before.has(m.version))) return;
  const apply = db.transaction(() => {
    const done = applied();
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    }
  });
  apply.immediate();
}
