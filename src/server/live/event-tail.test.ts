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
});
