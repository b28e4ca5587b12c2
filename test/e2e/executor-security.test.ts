import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { rawRequest, startDaemonProcess, type DaemonProcess } from '../helpers/raw-http.js';

const daemons: DaemonProcess[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop();
});

const start = async (...args: Parameters<typeof startDaemonProcess>) => {
  const d = await startDaemonProcess(...args);
  daemons.push(d);
  return d;
};

const until = async (what: string, probe: () => boolean | Promise<boolean>) => {
  const end = Date.now() + 15_000;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** `baton executor serve`: nobody but the holder of its token launches anything on it. */
describe('the executor daemon: token, content type, Host and Origin', () => {
  it('creates its token at first start (0600 in a new 0700 home, under umask 000) and `baton executor token` prints it', async () => {
    const home = join(tempDir('baton-exec-'), 'home');
    const d = await start(home, { umask000: true });
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const file = join(home, 'executor-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(d.stdout()).toContain(`token: the file ${file}`);
    const printed = await runCli(['executor', 'token'], {
      cwd: home,
      env: { BATON_HOME: home, BATON_EXECUTOR_TOKEN: undefined },
    });
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(token);

    expect((await rawRequest(d.url, { path: '/health' })).status).toBe(401);
    const wrong = await rawRequest(d.url, {
      path: '/health',
      headers: { authorization: `Bearer ${token.slice(0, -1)}x` },
    });
    expect(wrong.status).toBe(401);
    const right = await rawRequest(d.url, { path: '/health', headers: { authorization: `Bearer ${token}` } });
    expect(right.status).toBe(200);
    expect(right.json()).toEqual({ ok: true, runs: 0 });
  });

  it('a text/plain POST with a foreign Origin launches nothing; neither does a forged Host or a missing token', async () => {
    const home = tempDir('baton-exec-');
    const work = tempDir('baton-exec-work-');
    const d = await start(home);
    const token = readFileSync(join(home, 'executor-token'), 'utf8').trim();
    const auth = { authorization: `Bearer ${token}` };
    const marker = join(work, 'launched');
    const spec = JSON.stringify({ bin: 'touch', args: [marker], cwd: work, env: {} });
    const launch = (headers: Record<string, string>) =>
      rawRequest(d.url, { method: 'POST', path: '/launch', headers, body: spec });
    const port = new URL(d.url).port;

    // The attack of the review: a page elsewhere posting text/plain (a "simple" request: no preflight).
    expect((await launch({ 'content-type': 'text/plain', origin: 'http://attacker.example' })).status).toBe(
      403,
    );
    expect(
      (await launch({ ...auth, 'content-type': 'text/plain', origin: 'http://attacker.example' })).status,
    ).toBe(403);
    expect((await launch({ ...auth, 'content-type': 'application/json', origin: 'null' })).status).toBe(403);
    // Each check on its own: no token, no JSON, a forged Host (DNS rebinding), a JSON body with no token.
    expect((await launch({ 'content-type': 'application/json' })).status).toBe(401);
    const plain = await launch({ ...auth, 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.json().error).toMatch(/application\/json/);
    expect((await launch({ ...auth })).status).toBe(415);
    expect((await launch({ ...auth, 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    const forged = await launch({
      ...auth,
      'content-type': 'application/json',
      host: `attacker.example:${port}`,
    });
    expect(forged.status).toBe(403);
    expect(forged.json().error).toMatch(/Host/);
    expect((await launch({ ...auth, 'content-type': 'application/json', host: 'localhost:1' })).status).toBe(
      403,
    );

    const health = await rawRequest(d.url, { path: '/health', headers: auth });
    expect(health.json()).toEqual({ ok: true, runs: 0 });
    expect(existsSync(marker)).toBe(false);

    // The same request from Baton's side (token, JSON, the daemon's own Host; localhost too) does launch.
    const ok = await launch({
      ...auth,
      'content-type': 'application/json; charset=utf-8',
      host: `localhost:${port}`,
    });
    expect(ok.status).toBe(201);
    await until('the launched command', () => existsSync(marker));
  });

  it('refuses a non-loopback bind without an explicit token, and a short one; agents never see the token', async () => {
    const home = tempDir('baton-exec-');
    const refused = await runCli(['executor', 'serve', '--host', '0.0.0.0', '--port', '0'], {
      cwd: home,
      env: { BATON_HOME: home, BATON_EXECUTOR_TOKEN: undefined },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /refusing to bind 0\.0\.0\.0 without an explicit token: set BATON_EXECUTOR_TOKEN/,
    );
    expect(existsSync(join(home, 'executor-token'))).toBe(false);
    const short = await runCli(['executor', 'serve', '--port', '0'], {
      cwd: home,
      env: { BATON_HOME: home, BATON_EXECUTOR_TOKEN: 'secret' },
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/BATON_EXECUTOR_TOKEN is 6 characters long; use at least 16/);

    const token = 'a-long-explicit-executor-token-0123';
    const d = await start(home, { args: ['--host', '0.0.0.0'], env: { BATON_EXECUTOR_TOKEN: token } });
    expect(d.stdout()).toContain('token: the variable BATON_EXECUTOR_TOKEN');
    const local = d.url.replace('0.0.0.0', '127.0.0.1');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const work = tempDir('baton-exec-work-');
    const out = join(work, 'env.txt');
    const r = await rawRequest(local, {
      method: 'POST',
      path: '/launch',
      headers: auth,
      body: JSON.stringify({
        bin: process.execPath,
        args: [
          '-e',
          `require('fs').writeFileSync(${JSON.stringify(out)}, String(process.env.BATON_EXECUTOR_TOKEN))`,
        ],
        cwd: work,
        env: {},
      }),
    });
    expect(r.status).toBe(201);
    await until('the agent', () => existsSync(out));
    expect(readFileSync(out, 'utf8')).toBe('undefined');
    // bound to every interface, it still answers only to names of this machine
    const port = new URL(local).port;
    const evil = await rawRequest(local, {
      path: '/health',
      headers: { ...auth, host: `rebind.example:${port}` },
    });
    expect(evil.status).toBe(403);
  });
});
