import { createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresStore, type PostgresOptions } from '../../src/storage/postgres/index.js';
import { freshPostgresUrl, postgresAdminUrl } from '../helpers/postgres.js';

/** Why opening a store on `url` failed (null: it opened). */
const refusal = (url: string, options: PostgresOptions = {}) =>
  PostgresStore.open(url, options).then(
    async (store) => {
      await store.close();
      return null;
    },
    (e: Error) => e,
  );

/** A URL of the run's PostgreSQL with another database name or query. */
function variant(change: (u: URL) => void): string {
  const u = new URL(postgresAdminUrl());
  change(u);
  return u.toString();
}

describe('PostgreSQL refusing a connection', () => {
  it('a database that does not exist: said with how to create it, the password left out', async () => {
    const url = variant((u) => (u.pathname = '/no_such_baton_db'));
    const err = await refusal(url);
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

  it('a wrong password: the login refused, with what to check (not "cannot reach")', async () => {
    const err = await refusal(variant((u) => (u.password = 'not-the-password')));
    expect(err?.message).toMatch(
      /^PostgreSQL at \S+ refused the login \(password authentication failed for user "[^"]+"\); check the user and password of the database URL \(--database, BATON_DATABASE_URL or the `database` key of a config file\)$/,
    );
    expect(err?.message).not.toContain('not-the-password');
  });

  it('a role that may not create tables: what to grant it', async () => {
    const url = await freshPostgresUrl();
    const role = `baton_plain_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'plain'`);
      // PostgreSQL 15 and later: only the database's owner creates in its public schema
      await admin.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    } finally {
      await admin.end();
    }
    const err = await refusal(
      variant((u) => {
        u.pathname = new URL(url).pathname;
        u.username = role;
        u.password = 'plain';
      }),
    );
    expect(err?.message).toMatch(
      /permission denied for schema public; the role needs to create and use its tables/,
    );
    expect(err?.message).toContain('GRANT USAGE, CREATE ON SCHEMA public TO <role>');
  });

  it('a server that takes the connection and never answers: given up on after 5 s, said so', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const err = await refusal(`postgres://baton:secret@127.0.0.1:${port}/baton`);
      expect(err?.message).toBe(
        `PostgreSQL at postgres://baton:***@127.0.0.1:${port}/baton did not answer within 5 s (it took the connection and never replied: a stopped or overloaded server, or another program on that port); check that it runs and answers (\`psql\` with the same URL)`,
      );
      expect((err as { details?: unknown }).details).toMatchObject({ unanswered: true });
      // a hook after one it left unanswered gives it less time, and says how long it waited
      const sooner = await refusal(`postgres://baton:secret@127.0.0.1:${port}/baton`, {
        answerWithinMs: 1500,
      });
      expect(sooner?.message).toMatch(
        /did not answer within 1\.5 s \(it took the connection and never replied/,
      );
      expect((sooner as { details?: unknown }).details).toMatchObject({ unanswered: true });
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  }, 20_000);

  it('a server that answers is opened as ever when a first connection is given less time', async () => {
    expect(await refusal(await freshPostgresUrl(), { answerWithinMs: 1500 })).toBeNull();
  });
});
