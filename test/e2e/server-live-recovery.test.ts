import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeRepo } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

interface Msg {
  type: string;
  position?: number;
  error?: { code: string; message: string };
  [k: string]: unknown;
}

async function connect(url: string) {
  const ws = new WebSocket(url);
  const messages: Msg[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as Msg));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const waitFor = async (pred: (m: Msg) => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const m = messages.find(pred);
      if (m) return m;
      if (Date.now() > deadline) throw new Error(`no ${what}; got ${messages.map((x) => x.type).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { ws, messages, closed, waitFor };
}

/** Live subscribers are never left deaf: a failed replay closes them (1011) and a stale `since` is reset. */
describe('baton server: WebSocket subscribers that fall out of step', () => {
  const repo = makeRepo();
  let t: TestServer;
  let ws = '';
  let id = '';

  const gauge = async (name: string) => {
    const text = await (await t.api('/metrics')).text();
    return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  };
  const step = (path: string) =>
    t.api(`/api/workflows/${id}${path}`, { method: 'POST', json: { note: null } });

  beforeAll(async () => {
    t = await startTestServer({ pollMs: 50 });
    ws = `${t.server.url.replace(/^http/, 'ws')}/ws?token=${t.server.token}`;
    const r = await t.api('/api/workflows', {
      method: 'POST',
      json: {
        title: 'live',
        tasks: [
          { id: 'T1', title: 'one' },
          { id: 'T2', title: 'two' },
        ],
        worktree: repo,
      },
    });
    id = ((await r.json()) as { id: string }).id;
  });
  afterAll(async () => t?.close());

  it('a replay that fails closes the socket with 1011; reconnecting with since gets everything', async () => {
    expect((await step('/tasks/T1/start')).status).toBe(200);
    // Damage one stored event: reading it fails, as a real store error would (the tail is past it).
    const db = new Database(t.service.store.location);
    const victim = db
      .prepare('SELECT position, data FROM events ORDER BY position LIMIT 1 OFFSET 1')
      .get() as {
      position: number;
      data: string;
    };
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run('{not json', victim.position);
    try {
      const c = await connect(`${ws}&since=0`);
      const error = await c.waitFor((m) => m.type === 'error', 'an error message');
      expect(error.error).toEqual({
        code: 'unavailable',
        message: 'replaying events from the store failed; reconnect with ?since=<last position>',
      });
      expect(await c.closed).toEqual({
        code: 1011,
        reason: 'replay failed; reconnect with ?since=<last position>',
      });
      const seen = c.messages.filter((m) => typeof m.position === 'number').map((m) => m.position ?? 0);
      // it is gone from the hub: nothing is queued for it while events go on
      expect(await gauge('baton_ws_clients')).toBe(0);
      expect((await step('/tasks/T1/done')).status).toBe(200);
      expect(await gauge('baton_ws_queued_events')).toBe(0);

      db.prepare('UPDATE events SET data = ? WHERE position = ?').run(victim.data, victim.position);
      const last = seen.length ? Math.max(...seen) : 0;
      const again = await connect(`${ws}&since=${last}`);
      await again.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
      const types = again.messages.map((m) => m.type);
      expect(types).toContain('task.started');
      expect(types).toContain('task.completed');
      const all = await t.service.store.readEventsSince(last, 1000);
      const replayed = again.messages.filter((m) =>
        all.some((e) => e.position === m.position && e.type === m.type),
      );
      expect(replayed.map((m) => m.position)).toEqual(all.map((e) => e.position));
      again.ws.close();
    } finally {
      db.close();
    }
  });

  it('a since beyond the end of the log gets subscription.reset, then the new events', async () => {
    const all = await t.service.store.readEventsSince(0, 10_000);
    const end = all[all.length - 1]!.position;
    const c = await connect(`${ws}&since=${end + 1000}`);
    const reset = await c.waitFor((m) => m.type === 'subscription.reset', 'the reset');
    expect(reset).toMatchObject({ position: end, since: end + 1000, workflow_id: null });
    await c.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    expect((await step('/tasks/T2/start')).status).toBe(200);
    const started = await c.waitFor((m) => m.type === 'task.started', 'the next event');
    expect(started.position).toBeGreaterThan(end);
    c.ws.close();
  });
});
