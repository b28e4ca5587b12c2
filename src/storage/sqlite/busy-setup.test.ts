import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { retryWhileBusy } from './busy-setup.js';

/** Another process holding the database's exclusive lock for `ms`; resolves once it holds it. */
function holdLock(path: string, ms: number): Promise<void> {
  const code = `const D = require('better-sqlite3'); const db = new D(process.argv[1]); db.exec('BEGIN EXCLUSIVE'); console.log('locked'); setTimeout(() => db.exec('COMMIT'), ${ms});`;
  const child = spawn(process.execPath, ['-e', code, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`the lock holder exited with ${c}`)));
  });
}

describe('the set-up of a new SQLite connection, while the database is busy', () => {
  it('runs again until the lock is free, where SQLite answers busy at once', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'baton-busy-')), 'baton.db');
    await holdLock(path, 300);
    // no busy timeout: SQLite answers busy at once, as it does to two processes deadlocked on switching to WAL
    const db = new Database(path, { timeout: 0 });
    expect(() => db.pragma('journal_mode = WAL')).toThrow(/locked/);
    expect(retryWhileBusy(5_000, () => db.pragma('journal_mode = WAL', { simple: true }))).toBe('wal');
  });

  it('gives up after its time, and never retries another failure', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    let tries = 0;
    expect(() =>
      retryWhileBusy(50, () => {
        tries++;
        throw busy;
      }),
    ).toThrow(busy);
    expect(tries).toBeGreaterThan(1);
    tries = 0;
    const other = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    expect(() =>
      retryWhileBusy(5_000, () => {
        tries++;
        throw other;
      }),
    ).toThrow(other);
    expect(tries).toBe(1);
  });
});
