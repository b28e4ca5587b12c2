import { describe, expect, it } from 'vitest';
import { makeService } from '../../../test/helpers/service.js';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { EventTail } from './event-tail.js';
import type { PositionedEvent } from '../../service/index.js';

describe('EventTail', () => {
  it('finds the latest position by bisection and then delivers only newer events, in order', async () => {
    const service = makeService();
    expect(await service.events.latestPosition()).toBe(0);
    for (let i = 0; i < 7; i++)
      await service.create({ title: `w${i}`, tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    const all = await service.store.readEventsSince(0, 10_000);
    expect(await service.events.latestPosition()).toBe(all[all.length - 1]!.position);

    const got: PositionedEvent[] = [];
    const tail = new EventTail(service.events, (e) => got.push(...e), 10_000);
    await tail.start();
    expect(got).toEqual([]);
    const w = await service.create({ title: 'new', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    await service.startTask({ workflowId: w.id }, 'A');
    await tail.kick();
    expect(got.map((e) => e.type)).toEqual([
      'workflow.created',
      'session.started',
      'workflow.started',
      'task.started',
    ]);
    expect(got.every((e, i) => i === 0 || e.position > got[i - 1]!.position)).toBe(true);
    await tail.stop();
    await service.store.close();
  });

  it('an outage is said once, then at most every minute with the count, and its end is said', async () => {
    const service = makeService();
    let down = false;
    const feed = {
      latestPosition: () => service.events.latestPosition(),
      since: (p: number, n: number) =>
        down ? Promise.reject(new Error('connection terminated')) : service.events.since(p, n),
    } as typeof service.events;
    const lines: string[] = [];
    let now = Date.parse('2026-01-01T00:00:00Z');
    const got: PositionedEvent[] = [];
    const tail = new EventTail(
      feed,
      (e) => got.push(...e),
      10_000,
      (l) => lines.push(l),
      () => now,
    );
    await tail.start();
    down = true;
    // 43 polls in about 15 s: one line
    for (let i = 0; i < 43; i++, now += 350) await tail.kick();
    expect(lines).toEqual([
      'baton serve: reading new events failed: connection terminated (live events wait; said again every 60 s while it lasts)',
    ]);
    now += 60_000;
    await tail.kick();
    expect(lines[1]).toBe(
      'baton serve: reading new events still fails (44 polls since 2026-01-01T00:00:00.000Z): connection terminated',
    );
    await service.create({ title: 'during', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    down = false;
    await tail.kick();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /^baton serve: reading new events works again after 75 s \(44 failed polls\); live events go on from where they stopped$/,
    );
    expect(got.map((e) => e.type)).toContain('workflow.created');
    await tail.kick();
    expect(lines).toHaveLength(3);
    await tail.stop();
    await service.store.close();
  });
});
