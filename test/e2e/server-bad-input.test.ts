import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

const stack = /at .*\.(js|ts):\d+/;

/** Every bad request gets a clear 4xx with no stack, and the server keeps serving (a good request follows each). */
describe('baton server: bad input', () => {
  let t: TestServer;
  let id = '';
  const repo = makeRepo();
  const web = tempDir('baton-web-');

  beforeAll(async () => {
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>dashboard</title>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
    t = await startTestServer({ webDir: web, maxBodyBytes: 64 * 1024 });
    const r = await t.api('/api/workflows', {
      method: 'POST',
      json: { title: 'x', tasks: [{ id: 'A', title: 'a' }], worktree: repo },
    });
    id = ((await r.json()) as { id: string }).id;
  });
  afterAll(async () => t?.close());

  async function expectError(res: Response, status: number, code: string, match?: RegExp) {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    expect(text).not.toMatch(stack);
    const body = JSON.parse(text) as {
      error: { code: string; message: string; issues?: { path: string }[] };
    };
    expect(body.error.code).toBe(code);
    if (match) expect(JSON.stringify(body.error)).toMatch(match);
    const ok = await t.api('/api/workflows');
    expect(ok.status, 'the server keeps serving').toBe(200);
    return body.error;
  }

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    t.api(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('malformed JSON', async () => {
    await expectError(await post('/api/workflows', '{"title": '), 400, 'invalid_input', /malformed JSON/);
    await expectError(
      await post(`/api/workflows/${id}/pause`, 'not json'),
      400,
      'invalid_input',
      /malformed/,
    );
    // a body sent as another type than JSON: what to send instead
    await expectError(
      await post(`/api/workflows/${id}/pause`, 'reason=lunch', {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      415,
      'invalid_input',
      /not JSON: send a JSON object with Content-Type: application\/json/,
    );
  });

  it('wrong types name the failing field paths', async () => {
    const e = await expectError(
      await t.api('/api/workflows', { method: 'POST', json: { title: 42, tasks: [{ id: '', title: 'x' }] } }),
      400,
      'invalid_input',
    );
    expect(e.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['body.title', 'body.tasks.0.id']));
    const usage = await expectError(
      await t.api(`/api/workflows/${id}/usage`, { method: 'POST', json: { tokens_used: -1 } }),
      400,
      'invalid_input',
    );
    expect(usage.issues?.[0]?.path).toBe('body.tokens_used');
    await expectError(await t.api('/api/workflows?status=sleeping'), 400, 'invalid_input', /query.status/);
    await expectError(
      await t.api(`/api/workflows/${id}/sessions/zero/status`),
      400,
      'invalid_input',
      /param.n/,
    );
  });

  it('unknown fields are rejected, not dropped', async () => {
    await expectError(
      await t.api(`/api/workflows/${id}/pause`, { method: 'POST', json: { reason: 'x', admin: true } }),
      400,
      'invalid_input',
      /admin/,
    );
    await expectError(await t.api('/api/workflows?sort=desc'), 400, 'invalid_input', /sort/);
    // a misspelt task key would drop what it says (a dependency): named, with the keys a task has
    await expectError(
      await t.api('/api/workflows', {
        method: 'POST',
        json: { title: 'x', tasks: [{ id: 'B', title: 'b', depends: ['A'] }], worktree: repo },
      }),
      400,
      'invalid_input',
      /tasks\.0: unknown key \\"depends\\" \(a task has id, title, description, deps, lane\)/,
    );
  });

  it('huge bodies get 413', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(200_000), tasks: [] });
    await expectError(await post('/api/workflows', huge), 413, 'payload_too_large', /bytes/);
  });

  it('path traversal in worktree paths', async () => {
    for (const worktree of ['../../etc', 'relative/dir', `${repo}/../../etc`, `${repo}\0/x`]) {
      const e = await expectError(
        await t.api('/api/workflows', { method: 'POST', json: { title: 'x', tasks: [], worktree } }),
        400,
        'invalid_input',
      );
      expect(e.issues?.[0]?.path).toBe('body.worktree');
    }
    await expectError(
      await t.api('/api/workflows/current/status', { cwd: '/tmp/../etc' }),
      400,
      'invalid_input',
      /x-baton-cwd/i,
    );
    await expectError(
      await t.api('/api/workflows', {
        method: 'POST',
        json: { title: 'x', tasks: [], worktree: '/no/such/dir' },
      }),
      400,
      'invalid_input',
      /not a directory/,
    );
    await expectError(await t.api('/api/workflows?worktree=../x'), 400, 'invalid_input', /query.worktree/);
    // a raw request (fetch would normalise the path) cannot read outside the dashboard's folder
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(t.server.url);
      const req = request(
        { host: u.hostname, port: u.port, path: '/assets/../../../../etc/passwd' },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    // what comes back is the dashboard's own page (the SPA fallback), not a file from outside its folder
    const index = await (await fetch(`${t.server.url}/`)).text();
    expect(index).toMatch(/<!doctype html>/i);
    expect(raw.body).toBe(index);
    expect(raw.body).not.toMatch(/root:/);
  });

  it('no token or a wrong token gets 401', async () => {
    await expectError(await t.api(`/api/workflows/${id}`, { auth: false }), 401, 'unauthorized', /missing/);
    await expectError(
      await t.api(`/api/workflows/${id}`, { auth: false, headers: { authorization: 'Bearer nope' } }),
      401,
      'unauthorized',
      /wrong/,
    );
    await expectError(
      await t.api('/openapi.json', { auth: false, headers: { authorization: 'Basic abc' } }),
      401,
      'unauthorized',
    );
  });

  it('a client that resets its connection in the middle of a WebSocket upgrade does not bring the server down', async () => {
    const { port } = t.server;
    // let in, or refused (a wrong token): the refusal is written to a socket the client has reset
    const upgrade = (token: string) =>
      [
        `GET /ws?token=${token}&workflow=${id} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Protocol: baton.v1',
        '',
        '',
      ].join('\r\n');
    // a browser closing a tab as its dashboard connects: the request, then a reset before the handshake is answered
    for (let i = 0; i < 60; i++)
      await new Promise<void>((done) => {
        const s = connect(port, '127.0.0.1', () =>
          s.write(upgrade(i % 3 ? (t.server.token ?? '') : 'wrong'), () => {
            // reset at once, or a moment later: either way before the handshake's answer is read
            if (i % 2) s.resetAndDestroy();
            else setTimeout(() => s.resetAndDestroy(), i % 5);
            done();
          }),
        );
        s.on('error', () => done());
      });
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.api('/healthz', { auth: false })).status).toBe(200);
  });

  it('unknown ids and routes get 404', async () => {
    await expectError(await t.api('/api/workflows/wf-nope/status'), 404, 'not_found', /wf-nope/);
    await expectError(await t.api(`/api/workflows/${id}/snapshots/snap-nope`), 404, 'not_found');
    await expectError(await t.api('/api/nothing-here'), 404, 'not_found');
    await expectError(await t.api(`/api/workflows/${id}/sessions/9/status`), 404, 'not_found');
  });

  it('serves the dashboard without a token, with the SPA fallback', async () => {
    const index = await t.api('/', { auth: false });
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('dashboard');
    const deep = await t.api('/some/deep/page', { auth: false });
    expect(await deep.text()).toContain('dashboard');
    // Unprefixed paths of the API are the API (the dashboard routes with #/...), so they need the token.
    expect((await t.api(`/workflows/${id}`, { auth: false })).status).toBe(401);
    const js = await t.api('/assets/app.js', { auth: false });
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await t.api('/assets/missing.js', { auth: false })).status).toBe(404);
  });
});

describe('baton serve: refusals', () => {
  it('refuses --no-auth on a non-loopback address, naming the option and the variable', async () => {
    const r = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--no-auth'], {
      cwd: tempDir(),
      env: { BATON_HOME: tempDir('baton-home-') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--no-auth/);
    expect(r.stderr).toMatch(/BATON_HOST/);
  });

  it('refuses to start when the token file cannot be created', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const r = await runCli(['serve', '--port', '0'], {
      cwd: dir,
      env: { BATON_HOME: join(dir, 'file', 'home') },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/token|home/i);
    expect(r.stderr).not.toMatch(stack);
  });

  it('a bad port names the option and the variable', async () => {
    const r = await runCli(['serve'], { cwd: tempDir(), env: { BATON_HOME: tempDir(), BATON_PORT: 'http' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--port.*BATON_PORT/);
  });

  it('the CLI in server mode says clearly when the server cannot be reached', async () => {
    const r = await runCli(['status'], {
      cwd: tempDir(),
      env: { BATON_HOME: tempDir(), BATON_URL: 'http://127.0.0.1:9', BATON_TOKEN: 'x' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach the Baton server at http:\/\/127.0.0.1:9/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
