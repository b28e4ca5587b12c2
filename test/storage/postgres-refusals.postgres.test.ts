import { describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import { postgresAdminUrl } from '../helpers/postgres.js';

/** A URL of the run's PostgreSQL with another database name or query. */
function variant(change: (u: URL) => void): string {
  const u = new URL(postgresAdminUrl());
  change(u);
  return u.toString();
}

describe('PostgreSQL refusing a connection', () => {
  it('a database that does not exist: said with how to create it, the password left out', async () => {
    const url = variant((u) => (u.pathname = '/no_such_baton_db'));
    const err = await PostgresStore.open(url, {}).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/database "no_such_baton_db" does not exist; create it \(`createdb <name>`/);
    const password = new URL(url).password;
    if (password) expect(err?.message).not.toContain(password);
  });

  it('sslmode=require on a server without TLS: what to change, and none of the driver warnings on every run', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const url = variant((u) => u.searchParams.set('sslmode', 'require'));
      const err = await PostgresStore.open(url, {}).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/does not speak TLS: leave sslmode out of the URL/);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('SECURITY WARNING'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
