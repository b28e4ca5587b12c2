import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server under load from a second process: `baton serve` in one child process, autocannon in another, against
 * a status read and a record write, beside a bare Hono hello-world route (same framework, same adapter) measured in
 * the same run. The ratio hello / route is what Baton's own work (auth, validation, the service, SQLite) costs.
 */
const require = createRequire(import.meta.url);
const autocannonBin = require.resolve('autocannon/autocannon.js');
const batonBin = fileURLToPath(new URL('../bin/baton.js', import.meta.url));

const helloScript = `
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
const app = new Hono().get('/hello', (c) => c.json({ hello: 'world' }));
const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (i) => console.log('listening on http://127.0.0.1:' + i.port));
process.on('SIGTERM', () => s.close(() => process.exit(0)));
`;

/** Starts a child process and resolves with its URL once it prints `listening on http://...`. */
function startChild(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Runs autocannon in its own process and returns its JSON result. */
function autocannon(url, { seconds, connections, method = 'GET', headers = {}, body }) {
  const args = [autocannonBin, '--json', '-c', String(connections), '-d', String(seconds), '-m', method];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  if (body) args.push('-b', body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
}

const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export async function benchServerLoad({ quick = false } = {}) {
  const seconds = quick ? 3 : 10;
  const connections = 10;
  const home = mkdtempSync(join(tmpdir(), 'baton-bench-server-'));
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const hello = await startChild(['--input-type=module', '-e', helloScript], {}, cwd);
  const baton = await startChild(
    [batonBin, 'serve', '--port', '0'],
    { BATON_HOME: home, BATON_URL: '' },
    cwd,
  );
  try {
    const token = readFileSync(join(home, 'token'), 'utf8').trim();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${baton.url}/api/workflows`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'bench', tasks: [{ id: 'T1', title: 'one' }], worktree: home }),
    }).then((r) => r.json());
    const id = created.id;
    await fetch(`${baton.url}/api/workflows/${id}/tasks/T1/start`, {
      method: 'POST',
      headers: auth,
      body: '{}',
    });
    const runs = [
      ['Hono hello-world GET /hello (baseline)', `${hello.url}/hello`, {}],
      [
        'status read GET /api/workflows/{id}/status',
        `${baton.url}/api/workflows/${id}/status`,
        { headers: auth },
      ],
      [
        'record write POST /api/workflows/{id}/history',
        `${baton.url}/api/workflows/${id}/history`,
        {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ text: 'ran the tests, 3 failing', task_id: 'T1' }),
        },
      ],
    ];
    const rows = [];
    let baseline = 0;
    for (const [name, url, opts] of runs) {
      const r = await autocannon(url, { seconds, connections, ...opts });
      const rps = r.requests.average;
      if (!baseline) baseline = rps;
      const errors = r.non2xx + r.errors;
      rows.push({
        name,
        value: `${fmt(rps)} req/s`,
        note: `p50 ${fmt(r.latency.p50, 1)} ms, p99 ${fmt(r.latency.p99, 1)} ms${baseline !== rps ? `, ${fmt(baseline / rps, 1)}x slower than hello-world` : ''}${errors ? `, ${errors} errors` : ''}`,
      });
    }
    return rows;
  } finally {
    await stop(baton.child);
    await stop(hello.child);
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}`);
  for (const r of await benchServerLoad({ quick: process.argv.includes('--quick') }))
    console.log(`${r.name.padEnd(50)} ${r.value.padStart(14)}  ${r.note}`);
}
