import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { tempDir } from '../helpers/git-repo.js';

describe('a SQLite database another process keeps locked', () => {
  it('opens for reading all the same: only a migration to run waits for the lock', async () => {
    const path = join(tempDir('baton-busy-'), 'baton.db');
    await new SqliteStore(path).close();
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const store = new SqliteStore(path, { busyTimeoutMs: 200 });
      expect(await store.listWorkflows({})).toEqual([]);
      await store.close();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });

  it('is said so when a migration waits out the lock, with how to find that process', async () => {
    const path = join(tempDir('baton-busy-'), 'baton.db');
    await new SqliteStore(path).close();
    const other = new Database(path);
    // a database of an older Baton: its last migration still to run
    other.exec('DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)');
    other.exec('BEGIN EXCLUSIVE');
    try {
      expect(() => new SqliteStore(path, { busyTimeoutMs: 200 })).toThrow(
        `cannot open the SQLite database ${path}: database is locked: another process kept it locked all the time this one waited`,
      );
      expect(() => new SqliteStore(path, { busyTimeoutMs: 200 })).toThrow(
        `(\`lsof ${path}\` names the processes`,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});
