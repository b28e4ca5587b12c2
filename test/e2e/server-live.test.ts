import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

interface Live {
  type: string;
  position: number;
  workflow_id: string | null;
  session_number: number | null;
  task_id: string | null;
  data?: Record<string, unknown>;
}

/** A WebSocket client that records every message. */
async function connect(url: string, protocols?: string[]) {
  const ws = new WebSocket(url, protocols);
  const messages: Live[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as Live));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const waitFor = async (pred: (m: Live) => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const m = messages.find(pred);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no ${what} within 10 s; got ${messages.map((m) => m.type).join(', ')}`);
  };
  const close = () =>
    new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
    });
  return {
    ws,
    messages,
    waitFor,
    close,
    events: () => messages.filter((m) => m.position !== undefined && !m.type.startsWith('subscription.')),
  };
}

/** Live events reach WebSocket subscribers from another process's CLI, and none is lost across a reconnect. */
describe('baton server: WebSocket /ws', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  let s: ServerProcess;
  let id = '';
  let wsBase = '';
  // the CLI in local mode, in another process, writing to the same SQLite file the server reads
  const baton = (...args: string[]) =>
    runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: undefined } });

  beforeAll(async () => {
    s = await startServerProcess(home);
    wsBase = `${s.url.replace(/^http/, 'ws')}/ws`;
    const r = await s.api('/api/workflows', {
      method: 'POST',
      json: {
        title: 'live',
        tasks: [
          { id: 'T1', title: 'one' },
          { id: 'T2', title: 'two', deps: ['T1'] },
        ],
        worktree: repo,
      },
    });
    id = ((await r.json()) as { id: string }).id;
  });
  afterAll(async () => s?.stop());

  it('refuses a connection without the token', async () => {
    await expect(connect(wsBase)).rejects.toThrow(/401/);
    await expect(connect(`${wsBase}?token=wrong`)).rejects.toThrow(/401/);
    await expect(connect(`${wsBase}?token=${s.token}&session=2`)).rejects.toThrow(/400/);
  });

  it('refuses a workflow that does not exist, at connection and in a subscribe message, keeping what it had', async () => {
    const token = `token=${s.token}`;
    await expect(connect(`${wsBase}?workflow=wf-nosuch&${token}`)).rejects.toThrow(/404/);
    const c = await connect(`${wsBase}?workflow=${id}&since=0&${token}`);
    await c.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    c.ws.send(JSON.stringify({ type: 'subscribe', workflow_id: 'wf-typo', since: 0 }));
    const refused = (await c.waitFor((m) => m.type === 'error', 'error')) as Live & {
      error?: { code: string; message: string };
    };
    expect(refused.error).toEqual({
      code: 'not_found',
      message:
        'workflow wf-typo does not exist (GET /api/workflows lists the workflows); the subscription is unchanged',
    });
    // still subscribed to its workflow: a change to it arrives
    const before = c.messages.length;
    expect(
      (
        await baton(
          'record',
          'decision',
          '--type',
          'approach',
          '--description',
          'keep the subscription',
          '-w',
          id,
        )
      ).code,
    ).toBe(0);
    await c.waitFor(
      (m) => c.messages.indexOf(m) >= before && m.type === 'decision.recorded' && m.workflow_id === id,
      'decision.recorded',
    );
    await c.close();
  });

  it('streams changes made by the CLI in another process, with workflow, session and task ids', async () => {
    const c = await connect(`${wsBase}?workflow=${id}`, ['baton.v1', `baton.token.${s.token}`]);
    expect(c.ws.protocol).toBe('baton.v1');
    await c.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    expect((await baton('task', 'start', 'T1', '-w', id)).code).toBe(0);
    const started = await c.waitFor((m) => m.type === 'task.started', 'task.started');
    expect(started).toMatchObject({ workflow_id: id, session_number: 1, task_id: 'T1' });
    expect(started.position).toBeGreaterThan(0);
    await baton('record', 'usage', '--tokens', '160000', '--context-window', '200000', '-w', id);
    const warned = await c.waitFor((m) => m.type === 'capacity.warned', 'capacity.warned');
    // Written once by core at the configured threshold (BATON_CAPACITY_WARN, default 0.7), never by the server.
    expect(warned.data).toMatchObject({ utilization: 0.8, threshold: 0.7, tokens: 160000 });
    await s.api(`/api/workflows/${id}/pause`, { method: 'POST', json: { reason: 'lunch', force: true } });
    await c.waitFor((m) => m.type === 'workflow.paused', 'workflow.paused');
    await c.waitFor((m) => m.type === 'snapshot.taken', 'snapshot.taken');
    await c.waitFor((m) => m.type === 'session.state_changed' && m.data?.state === 'ended', 'session ended');
    await c.close();
  });

  it('a client that reconnects with ?since= gets exactly what it missed', async () => {
    const token = `token=${s.token}`;
    const first = await connect(`${wsBase}?workflow=${id}&since=0&${token}`);
    await first.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    const seen = first.events();
    const last = seen[seen.length - 1]!.position;
    await first.close();

    // while disconnected: a resume through the API and task moves from the CLI
    await s.api(`/api/workflows/${id}/resume`, { method: 'POST' });
    expect((await baton('task', 'done', 'T1', '-w', id)).code).toBe(0);
    expect((await baton('task', 'start', 'T2', '-w', id)).code).toBe(0);

    const again = await connect(`${wsBase}?workflow=${id}&since=${last}&${token}`);
    await again.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    const missed = again.events();
    expect(missed.map((m) => m.type)).toEqual(
      expect.arrayContaining(['workflow.resumed', 'session.started', 'task.completed', 'task.started']),
    );
    expect(missed.every((m) => m.position > last)).toBe(true);

    // nothing lost, nothing repeated: what was seen plus what was missed is the whole log
    const all = await connect(`${wsBase}?workflow=${id}&since=0&${token}`);
    await all.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    const key = (m: Live) => `${m.position}:${m.type}`;
    expect([...seen, ...missed].map(key)).toEqual(all.events().map(key));
    await again.close();
    await all.close();
  });

  it('a session subscription gets only that session; an all subscription gets every workflow', async () => {
    const token = `token=${s.token}`;
    const session = await connect(`${wsBase}?workflow=${id}&session=2&since=0&${token}`);
    const everything = await connect(`${wsBase}?${token}`);
    await session.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    await everything.waitFor((m) => m.type === 'subscription.caught_up', 'caught_up');
    expect(session.events().length).toBeGreaterThan(0);
    expect(session.events().every((m) => m.session_number === 2 && m.workflow_id === id)).toBe(true);
    const other = await baton('create', '--title', 'other', '--task', 'X:x', '--json');
    const otherId = other.json<{ id: string }>().id;
    await everything.waitFor(
      (m) => m.type === 'workflow.created' && m.workflow_id === otherId,
      'other workflow',
    );
    everything.ws.send(JSON.stringify({ type: 'ping' }));
    await everything.waitFor((m) => m.type === 'pong', 'pong');
    everything.ws.send('nonsense');
    await everything.waitFor((m) => m.type === 'error', 'error');
    expect(everything.ws.readyState).toBe(WebSocket.OPEN);
    await session.close();
    await everything.close();
  });
});
