import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { submitWork } from '../../src/service/index.js';
import { queueStandingOf } from '../../src/service/queue-standing.js';
import { openStore } from '../../src/storage/open-store.js';
import type { Store } from '../../src/storage/store.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { makeService } from '../helpers/service.js';

// Which queued work a worker's claim takes, on each store: the SQL of the claim says what `admits` says of one row
// (src/core/queue/work-reach.ts). Work submitted with a label runs only on workers with that label.

const backends = [
  { name: 'sqlite', database: async () => join(tempDir('baton-queue-'), 'baton.db') },
  { name: 'postgres', database: () => freshPostgresUrl('baton_queue_reach') },
];

const worker = (n: number): LeaseHolder => ({
  owner: `${hostname()}:${process.pid}:test:worker-${n}`,
  host: hostname(),
  pid: process.pid,
  pid_start_time: null,
  kind: 'worker',
  command: 'baton worker',
});

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe.each(backends)('claiming queued work on $name', ({ database }) => {
  it('labelled work goes only to a worker with its label; unlabelled work to a worker whose root holds it', async () => {
    const store = await openStore({ database: await database() });
    stores.push(store);
    const svc = makeService(store);
    const submitted = async (label: string | null) => {
      const wf = await svc.create({
        title: 'work',
        tasks: [{ id: 'T1', title: 'Do it' }],
        worktree: makeRepo(),
      });
      await submitWork(svc, { workflowId: wf.id }, { agent: 'claude-code', ...(label ? { label } : {}) });
      return wf;
    };
    const gpu = await submitted('gpu');
    const plain = await submitted(null);
    const queue = store.workQueue!;
    const taken = async (n: number, filter: { roots: string[]; labels: string[] }) =>
      (await queue.claim(worker(n), 30_000, filter, 10)).map((c) => c.entry.workflow_id);

    // a root that holds both worktrees takes the unlabelled work only
    expect(await taken(1, { roots: [dirname(gpu.worktree), dirname(plain.worktree)], labels: [] })).toEqual([
      plain.id,
    ]);
    // another label takes nothing; the label takes its work, wherever it is
    expect(await taken(2, { roots: [], labels: ['cpu'] })).toEqual([]);
    expect(await taken(3, { roots: [], labels: ['gpu'] })).toEqual([gpu.id]);
  });

  it('two workers that could not start the work are both said, and neither counts as taking it', async () => {
    const store = await openStore({ database: await database() });
    stores.push(store);
    const svc = makeService(store);
    const wf = await svc.create({
      title: 'work',
      tasks: [{ id: 'T1', title: 'Do it' }],
      worktree: makeRepo(),
    });
    await submitWork(svc, { workflowId: wf.id }, { agent: 'claude-code' });
    const reach = { roots: [dirname(wf.worktree)], labels: [] };
    const refuse = async (n: number, why: string) => {
      await store.workers!.heartbeat(worker(n), reach, 30_000);
      expect((await store.workQueue!.claim(worker(n), 30_000, reach, 1)).length).toBe(1);
      expect(await store.workQueue!.refuse(wf.id, worker(n).owner, why)).toBe(true);
      await store.leases!.release(wf.id, worker(n).owner);
    };
    await refuse(1, 'worker 1 could not start it: claude was not found');
    await refuse(2, 'worker 2 could not start it: the Docker engine is down');
    expect(await queueStandingOf(store, wf.id)).toMatchObject({
      takers: 0,
      stuck: {
        reason:
          'worker 1 could not start it: claude was not found; worker 2 could not start it: the Docker engine is down; those 2 workers check again by themselves (every `--recheck`, 30s by default) and take it once they can start it, so fix that first (or submit it again: `baton submit`)',
      },
    });
    // a third worker that reaches it takes it
    await store.workers!.heartbeat(worker(3), reach, 30_000);
    expect(await queueStandingOf(store, wf.id)).toMatchObject({ takers: 1, stuck: null });
  });
});
