import { describe, expect, it } from 'vitest';
import { listWork, submitWork, type BatonService } from '../../src/service/index.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import type { Store } from '../../src/storage/store.js';
import { makeRepo } from '../helpers/git-repo.js';
import { postgresStore } from '../helpers/postgres.js';
import { makeService, sqliteStore } from '../helpers/service.js';

// A queued workflow that ends outside the queue (its worker died, then `baton run` or a person ended it), and one its
// worker ends: real SQLite and PostgreSQL stores, queue and leases.

const worker: LeaseHolder = {
  owner: 'there:42:7:worker',
  host: 'there',
  pid: 42,
  pid_start_time: '7',
  kind: 'worker',
  command: 'baton worker',
};
const everywhere = { roots: ['/'], labels: [] };

/** A workflow with its task started, queued and claimed by `worker` (which holds its lease). */
async function claimed(svc: BatonService, store: Store): Promise<string> {
  const wf = await svc.create({ title: 'q', tasks: [{ id: 'T1', title: 'one' }], worktree: makeRepo() });
  await svc.startTask({ workflowId: wf.id }, 'T1');
  await submitWork(svc, { workflowId: wf.id }, { agent: 'claude-code' });
  expect(await store.workQueue!.claim(worker, 60_000, everywhere, 1)).toHaveLength(1);
  return wf.id;
}

describe.each([
  ['SQLite', async (): Promise<Store> => sqliteStore()],
  ['PostgreSQL', async (): Promise<Store> => postgresStore()],
])('queued work that ended outside the queue (%s)', (_name, open) => {
  it('is done with how it ended as it ends, not left queued and claimed by the dead worker', async () => {
    const store = await open();
    try {
      const svc = makeService(store);
      const completed = await claimed(svc, store);
      const abandoned = await claimed(svc, store);
      for (const id of [completed, abandoned]) await store.leases!.release(id, worker.owner); // the worker died
      // another queued workflow stays queued
      const other = await svc.create({
        title: 'o',
        tasks: [{ id: 'T1', title: 'one' }],
        worktree: makeRepo(),
      });
      await submitWork(svc, { workflowId: other.id }, { agent: 'claude-code' });

      await svc.complete({ workflowId: completed }, { force: true });
      await svc.abandon({ workflowId: abandoned });
      // closed by the end itself, before anything lists the queue
      expect(await store.workQueue!.get(completed)).toMatchObject({
        state: 'done',
        outcome: 'completed outside the queue',
      });
      expect(await store.workQueue!.get(abandoned)).toMatchObject({
        state: 'done',
        outcome: 'cancelled outside the queue',
      });
      const listed = await listWork(svc);
      expect(listed.find((e) => e.workflow_id === completed)).toMatchObject({
        state: 'done',
        running: false,
      });
      expect(listed.find((e) => e.workflow_id === other.id)).toMatchObject({ state: 'queued' });
      // the dead worker's own finish finds nothing left to finish
      expect(await store.workQueue!.finish(completed, worker.owner, 'done')).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('is left to the worker that runs it, which finishes it with its own outcome', async () => {
    const store = await open();
    try {
      const svc = makeService(store);
      const id = await claimed(svc, store);
      await svc.complete({ workflowId: id }, { force: true });
      expect(await store.workQueue!.get(id)).toMatchObject({ state: 'queued', claimed_by: worker.owner });
      expect(await store.workQueue!.finish(id, worker.owner, 'completed')).toBe(true);
      expect(await store.workQueue!.get(id)).toMatchObject({ state: 'done', outcome: 'completed' });
    } finally {
      await store.close();
    }
  });

  it('`baton queue` writes nothing: a queued row of an ended workflow is listed as it is', async () => {
    const store = await open();
    try {
      const svc = makeService(store);
      const wf = await svc.create({ title: 'q', tasks: [{ id: 'T1', title: 'one' }], worktree: makeRepo() });
      await svc.abandon({ workflowId: wf.id });
      // queued after it ended (as by a Baton that closed rows only when listing them)
      await store.workQueue!.submit({
        workflow_id: wf.id,
        worktree: wf.worktree,
        label: null,
        priority: 0,
        profile: { agent: 'claude-code', agent_bin: null, context_window: null, max_sessions: 1 },
        submitted_by: 'cli',
      });
      const before = await store.workQueue!.list();
      const listed = await listWork(svc);
      expect(listed.map(({ running: _running, ...e }) => e)).toEqual(before);
      expect(await store.workQueue!.list()).toEqual(before);
      expect(before[0]).toMatchObject({ workflow_id: wf.id, state: 'queued' });
    } finally {
      await store.close();
    }
  });
});
