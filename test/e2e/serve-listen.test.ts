import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const started: ChildProcess[] = [];
afterEach(async () => {
  for (const p of started.splice(0)) {
    if (p.exitCode !== null || p.signalCode !== null) continue;
    const exited = new Promise((resolve) => p.once('exit', resolve));
    p.kill('SIGTERM');
    await exited;
  }
});

/** `baton serve` with these arguments, and its first lines once it listens. */
async function serve(args: string[], env: Record<string, string>, cwd: string) {
  const p = spawn(process.execPath, [batonBin, 'serve', ...args], { cwd, env: hermeticEnv(env) });
  started.push(p);
  const out = await new Promise<string>((resolve, reject) => {
    let text = '';
    p.stdout.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('  store ')) resolve(text);
    });
    p.on('exit', (code) => reject(new Error(`baton serve exited ${code}: ${text}`)));
  });
  return out;
}

describe('baton serve says where it listens, and why it cannot', () => {
  it('a port in use is said with what to do; every address of the machine is shown as addresses to open', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
    const first = await serve(['--port', '0'], env, repo);
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(first)?.[1];
    expect(port).toBeDefined();
    const taken = await runCli(['serve', '--port', port!], { cwd: repo, env });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(
      new RegExp(
        `port ${port} on 127\\.0\\.0\\.1 is in use by a \`baton serve\` already running there: commands use it with --server http://127\\.0\\.0\\.1:${port} \\(or BATON_URL\\)`,
      ),
    );
    // a port another program holds is said so
    const other = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const held = await runCli(['serve', '--port', String((other.address() as AddressInfo).port)], {
        cwd: repo,
        env,
      });
      expect(held.code).toBe(2);
      expect(held.stderr).toContain('is in use by another program (no Baton server answers there)');
    } finally {
      other.close();
    }

    const wide = await serve(
      ['--host', '0.0.0.0', '--port', '0'],
      { ...env, BATON_HOME: tempDir('baton-home-') },
      repo,
    );
    expect(wide).toMatch(
      /listening on every address of this machine, port \d+ \(from another machine: http:\/\/\S+:\d+, over plain HTTP/,
    );
    expect(wide).toMatch(/ {2}dashboard http:\/\/127\.0\.0\.1:\d+\/ /);
    expect(wide).not.toContain('0.0.0.0');
  });
});

describe('baton serve stopped by a signal', () => {
  it('says it stopped, on the output that said it started', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
    await serve(['--port', '0'], env, repo);
    const p = started.at(-1)!;
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => p.once('exit', resolve));
    p.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('baton serve stopped (SIGTERM)');
  });
});

describe('a client of a server that fails', () => {
  it('says the failure is the server’s, to fix where it runs; a URL given as the API’s works too', async () => {
    const paths: string[] = [];
    const fake = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 'unavailable',
            message:
              'cannot reach PostgreSQL at postgres://baton:***@db:5432/baton (ECONNREFUSED); check --database / BATON_DATABASE_URL',
          },
        }),
      );
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const r = await runCli(['list'], {
        cwd: makeRepo(),
        env: { BATON_HOME: tempDir('baton-home-'), BATON_URL: `${base}/api`, BATON_TOKEN: 't' },
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(
        `(said by the Baton server at ${base}: the settings named are the server's, where it runs)`,
      );
      expect(paths.every((p) => p.startsWith('/api/') && !p.startsWith('/api/api/'))).toBe(true);
    } finally {
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });
});
