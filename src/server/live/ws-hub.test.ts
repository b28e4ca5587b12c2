import { describe, expect, it } from 'vitest';
import { makeService } from '../../../test/helpers/service.js';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { WsHub, type LiveSocket } from './ws-hub.js';

/** A socket that records what the hub sends (the hub's whole view of a WebSocket). */
function recordingSocket() {
  const sent: { type: string; position?: number; [k: string]: unknown }[] = [];
  const closed: { code: number; reason: string }[] = [];
  const socket: LiveSocket = {
    send: (t) => void sent.push(JSON.parse(t) as (typeof sent)[number]),
    close: (code, reason) => void closed.push({ code, reason }),
    bufferedAmount: () => 0,
  };
  return { socket, sent, closed };
}

async function serviceWithEvents(workflows: number) {
  const service = makeService();
  for (let i = 0; i < workflows; i++)
    await service.create({ title: `w${i}`, tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
  return service;
}

describe('WsHub', () => {
  it('bounds the queue of a replaying subscriber, and still delivers every event once, in order', async () => {
    const service = await serviceWithEvents(10);
    const all = await service.store.readEventsSince(0, 10_000);
    const end = all[all.length - 1]!.position;
    const hub = new WsHub(service.events, () => end, 5);
    const { socket, sent } = recordingSocket();
    const s = hub.add(socket);
    // The replay from 0 is under way (awaiting the store) when the tail delivers all of them live.
    const replay = hub.subscribe(s, { workflow_id: null, session_number: null }, 0);
    hub.broadcast(all.slice(0, 4));
    expect(hub.queued).toBe(4);
    hub.broadcast(all.slice(4));
    expect(hub.queued).toBeLessThanOrEqual(5);
    await replay;
    expect(hub.queued).toBe(0);
    const positions = sent.filter((m) => m.type === all.find((e) => e.position === m.position)?.type);
    expect(positions.map((m) => m.position)).toEqual(all.map((e) => e.position));
    expect(sent[sent.length - 1]).toMatchObject({ type: 'subscription.caught_up', position: end });
    await service.store.close();
  });

  it('a `since` beyond the end of the log gets subscription.reset with where it ends, then the new events', async () => {
    const service = await serviceWithEvents(2);
    const end = await service.events.latestPosition();
    const hub = new WsHub(service.events, () => end);
    const { socket, sent } = recordingSocket();
    const s = hub.add(socket);
    await hub.subscribe(s, { workflow_id: null, session_number: null }, end + 500);
    expect(sent).toEqual([
      expect.objectContaining({ type: 'subscription.reset', position: end, since: end + 500 }),
      expect.objectContaining({ type: 'subscription.caught_up', position: end }),
    ]);
    expect(String(sent[0]?.reason)).toMatch(/beyond the end of the event log/);
    await service.create({ title: 'after', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    hub.broadcast(await service.store.readEventsSince(end, 100));
    expect(sent[2]).toMatchObject({ type: 'workflow.created', position: end + 1 });
    // a `since` the tail has not seen yet but the store has is no reset: it is served from the store
    const lagging = new WsHub(service.events, () => end);
    const other = recordingSocket();
    await lagging.subscribe(lagging.add(other.socket), { workflow_id: null, session_number: null }, end + 1);
    expect(other.sent.map((m) => m.type)).not.toContain('subscription.reset');
    await service.store.close();
  });

  it('closes with 1008 the sockets opened with a token other than the current one, and only those', async () => {
    const service = await serviceWithEvents(1);
    const hub = new WsHub(service.events, () => 0);
    const old = recordingSocket();
    const current = recordingSocket();
    const noAuth = recordingSocket();
    hub.add(old.socket, 'old');
    hub.add(current.socket, 'new');
    hub.add(noAuth.socket);
    hub.closeStale('new');
    expect(old.closed).toEqual([
      { code: 1008, reason: expect.stringContaining('token was rotated') as string },
    ]);
    expect(current.closed).toEqual([]);
    expect(noAuth.closed).toEqual([]);
    expect(hub.size).toBe(2);
    await service.store.close();
  });
});
