import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const attacker = 'http://attacker.example';

/** Opens a WebSocket with the given headers; resolves with the HTTP status of a refused upgrade, or 101. */
function upgrade(url: string, headers: Record<string, string>, protocols?: string[]) {
  return new Promise<{ status: number; ws: WebSocket | null }>((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, ws: null });
      ws.terminate();
    });
    ws.once('error', (e) => reject(e));
  });
}

const createWorkflow = async (s: ServerProcess, repo: string) => {
  const r = await s.api('/api/workflows', {
    method: 'POST',
    json: { title: 'target', tasks: [{ id: 'T1', title: 'one' }], worktree: repo },
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: string }).id;
};

/**
 * `baton serve --no-auth` (loopback) driven by a page on another site: the review's reproductions. A foreign Origin
 * gets 403 on every state-changing request and on /ws; a Host that is not this server's (DNS rebinding) gets 403
 * on everything. Same-origin and Origin-less requests (the CLI, curl) work.
 */
describe('baton serve --no-auth: Origin and Host', () => {
  const repo = makeRepo();
  let s: ServerProcess;
  let port = '';
  let id = '';

  beforeAll(async () => {
    s = await startServerProcess(tempDir('baton-home-'), { args: ['--no-auth'] });
    port = new URL(s.url).port;
    id = await createWorkflow(s, repo);
  });
  afterAll(async () => s?.stop());

  const statusOf = async () =>
    ((await (await s.api(`/api/workflows/${id}`)).json()) as { workflow: { status: string } }).workflow
      .status;

  it('a body-less cross-site POST (curl -X POST -H "Origin: http://attacker.example" .../abandon) is refused', async () => {
    const r = await rawRequest(s.url, {
      method: 'POST',
      path: `/workflows/${id}/abandon`,
      headers: { origin: attacker },
    });
    expect(r.status).toBe(403);
    expect(r.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(
        /cross-origin request from "http:\/\/attacker.example" refused.*--allow-origin/,
      ),
    });
    for (const [path, type] of [
      [`/api/workflows/${id}/abandon`, 'text/plain'],
      [`/api/workflows/${id}/pause`, 'application/x-www-form-urlencoded'],
      [`/api/workflows/${id}/abandon`, 'application/json'],
    ] as const) {
      const x = await rawRequest(s.url, {
        method: 'POST',
        path,
        headers: { origin: attacker, 'content-type': type },
        body: '{"reason":"pwned"}',
      });
      expect(x.status, `${path} ${type}`).toBe(403);
    }
    for (const method of ['PUT', 'PATCH', 'DELETE'])
      expect(
        (await rawRequest(s.url, { method, path: `/api/workflows/${id}`, headers: { origin: 'null' } }))
          .status,
      ).toBe(403);
    expect(await statusOf()).toBe('pending');
  });

  it('same-origin and Origin-less requests pass', async () => {
    const same = await rawRequest(s.url, {
      method: 'POST',
      path: `/api/workflows/${id}/tasks/T1/start`,
      headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(same.status).toBe(200);
    const none = await rawRequest(s.url, {
      method: 'POST',
      path: `/workflows/${id}/abandon`,
      headers: { 'content-type': 'application/json' },
      body: '{"reason":"done here"}',
    });
    expect(none.status).toBe(200);
    expect(await statusOf()).toBe('cancelled');
    // a GET from elsewhere is not state-changing (and gets no CORS headers, so a page cannot read it)
    const get = await rawRequest(s.url, { path: '/api/workflows', headers: { origin: attacker } });
    expect(get.status).toBe(200);
    expect(get.body).not.toContain('access-control');
  });

  it('/ws refuses a foreign Origin and accepts its own', async () => {
    const ws = `${s.url.replace(/^http/, 'ws')}/ws`;
    expect((await upgrade(ws, { origin: attacker })).status).toBe(403);
    expect((await upgrade(ws, { origin: `http://localhost:${port}` })).status).toBe(403);
    const own = await upgrade(ws, { origin: `http://127.0.0.1:${port}` });
    expect(own.status).toBe(101);
    own.ws?.close();
    const bare = await upgrade(ws, {});
    expect(bare.status).toBe(101);
    bare.ws?.close();
  });

  it('a forged Host (DNS rebinding) gets 403 everywhere, health checks and static files included', async () => {
    for (const host of [
      `attacker.example:${port}`,
      `attacker.example`,
      `127.0.0.1:${Number(port) + 1}`,
      `[::1]:1`,
    ]) {
      for (const path of ['/api/workflows', '/healthz', '/', '/openapi.json']) {
        const r = await rawRequest(s.url, { path, headers: { host } });
        expect(r.status, `${host} ${path}`).toBe(403);
        expect(r.body).not.toContain(id);
      }
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `127.0.0.2:${port}`])
      expect((await rawRequest(s.url, { path: '/api/workflows', headers: { host } })).status, host).toBe(200);
    const ws = `${s.url.replace(/^http/, 'ws')}/ws`;
    expect((await upgrade(ws, { host: `attacker.example:${port}` })).status).toBe(403);
  });

  it('a WebSocket frame over 1 MiB (the default limit) closes the socket with 1009', async () => {
    const { ws } = await upgrade(`${s.url.replace(/^http/, 'ws')}/ws`, {});
    const closed = new Promise<number>((resolve) => ws?.once('close', (code) => resolve(code)));
    ws?.send(JSON.stringify({ type: 'ping', padding: 'x'.repeat(1024 * 1024) }));
    expect(await closed).toBe(1009);
  });
});

describe('baton serve: Origin and Host with a token, extra hosts and origins, frames', () => {
  const repo = makeRepo();
  let s: ServerProcess;
  let port = '';

  beforeAll(async () => {
    s = await startServerProcess(tempDir('baton-home-'), {
      args: ['--allow-host', 'baton.example.com,proxy.example:8443', '--max-frame', '4096'],
      env: { BATON_ALLOWED_ORIGINS: 'https://baton.example.com' },
    });
    port = new URL(s.url).port;
  });
  afterAll(async () => s?.stop());

  it('a foreign Origin is refused even with the right token', async () => {
    const id = await createWorkflow(s, repo);
    const r = await s.api(`/api/workflows/${id}/abandon`, {
      method: 'POST',
      json: { reason: null },
      headers: { origin: attacker },
    });
    expect(r.status).toBe(403);
  });

  it('extra hosts and origins from --allow-host and BATON_ALLOWED_ORIGINS pass; others do not', async () => {
    const auth = { authorization: `Bearer ${s.token}` };
    const get = (host: string) => rawRequest(s.url, { path: '/api/workflows', headers: { ...auth, host } });
    expect((await get('baton.example.com')).status).toBe(200);
    expect((await get('baton.example.com:443')).status).toBe(200);
    expect((await get('proxy.example:8443')).status).toBe(200);
    expect((await get('proxy.example:8444')).status).toBe(403);
    expect((await get('other.example.com')).status).toBe(403);
    const post = (host: string, origin: string) =>
      rawRequest(s.url, {
        method: 'POST',
        path: '/api/cleanup',
        headers: { ...auth, host, origin, 'content-type': 'application/json' },
        body: '{"older_than_ms":999999999,"dry_run":true}',
      });
    // behind a proxy keeping the Host: same origin; behind one rewriting it: the allowed origin
    expect((await post('baton.example.com', 'https://baton.example.com')).status).toBe(200);
    expect((await post(`127.0.0.1:${port}`, 'https://baton.example.com')).status).toBe(200);
    expect((await post(`127.0.0.1:${port}`, 'https://evil.example.com')).status).toBe(403);
  });

  it('a WebSocket frame over --max-frame closes the socket with 1009; a small one is answered', async () => {
    const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/ws?token=${s.token}`);
    const messages: string[] = [];
    ws.on('message', (d) => messages.push(String(d)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'ping' }));
    const deadline = Date.now() + 10_000;
    while (!messages.some((m) => m.includes('"pong"'))) {
      if (Date.now() > deadline) throw new Error('no pong');
      await new Promise((r) => setTimeout(r, 20));
    }
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ type: 'subscribe', padding: 'x'.repeat(5000) }));
    expect(await closed).toBe(1009);
  });
});
