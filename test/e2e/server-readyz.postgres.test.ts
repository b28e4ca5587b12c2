import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl, postgresAdminUrl } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

/**
 * The review's finding: `/readyz`, unauthenticated, showed the database user, host, port and name when the store
 * failed. Now it says ready or not; the cause goes to the server's log, where the operator looks.
 */
describe('baton serve on PostgreSQL: unauthenticated endpoints reveal nothing about the database', () => {
  let s: ServerProcess | null = null;
  afterAll(async () => s?.stop());

  it('/readyz and /healthz say nothing of the database, before and after it disappears', async () => {
    const url = new URL(await freshPostgresUrl('baton_readyz'));
    const name = url.pathname.slice(1);
    s = await startServerProcess(tempDir('baton-home-'), { env: { BATON_DATABASE_URL: url.toString() } });
    let log = '';
    s.child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    const secrets = [name, decodeURIComponent(url.username), url.hostname, `:${url.port}`, 'postgres://'];
    const reveals = (body: string) => secrets.filter((x) => x && body.includes(x));

    const ready = await s.api('/readyz', { auth: false });
    expect(ready.status).toBe(200);
    const readyBody = await ready.text();
    expect(JSON.parse(readyBody)).toEqual({ ready: true });
    expect(reveals(readyBody)).toEqual([]);

    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    const down = await s.api('/readyz', { auth: false });
    expect(down.status).toBe(503);
    const downBody = await down.text();
    expect(JSON.parse(downBody)).toEqual({ ready: false, reason: 'store unavailable; see the server log' });
    expect(reveals(downBody)).toEqual([]);
    const health = await s.api('/healthz', { auth: false });
    expect(reveals(await health.text())).toEqual([]);
    // the operator gets the cause in the server's log
    const deadline = Date.now() + 10_000;
    while (!log.includes('/readyz: the store is unavailable:')) {
      if (Date.now() > deadline) throw new Error(`no store error in the server log:\n${log}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    // ...and that cause does name the database: exactly what the endpoint used to show to anyone
    expect(log).toContain(name);
  });
});
