import { describe, expect, it } from 'vitest';
import { listWork, submitWork } from '../../src/service/index.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import type { Store } from '../../src/storage/store.js';
import { makeRepo } from '../helpers/git-repo.js';
import { postgresStore } from '../helpers/postgres.js';
import { makeService, sqliteStore } from '../helpers/service.js';

// A queued workflow that ends outside the queue (its worker died, then `baton run` or a person ended it): real
// SQLite and PostgreSQL stores, queue and leases.

const dead: LeaseHolder = {
  owner: 'there:42:7:worker',
  host: 'there',
  pid: 42,
  pid_start_time: '7',
  kind: 'worker',
  command: 'baton worker',
};

describe.each([
  ['SQLite', async (): Promise<Store> => sqliteStore()],
  ['PostgreSQL', async (): Promise<Store> => postgresStore()],
])('queued work that ended outside the queue (%s)', (_name, open) => {
  it('`baton queue` lists it done with how it ended, not queued and claimed by the dead worker', async () => {
    const store = await open();
    try {
      const svc = makeService(store);
      const wf = await svc.create({ title: 'q', tasks: [{ id: 'T1', title: 'one' }], worktree: makeRepo() });
      const ref = { workflowId: wf.id };
      await svc.startTask(ref, 'T1');
      await submitWork(svc, ref, { agent: 'claude-code' });
      expect(await store.workQueue!.claim(dead, 60_000, { roots: ['/'], labels: [] }, 1)).toHaveLength(1);
      await store.leases!.release(wf.id, dead.owner);
      // another queued workflow stays queued
      const other = await svc.create({
        title: 'o',
        tasks: [{ id: 'T1', title: 'one' }],
        worktree: makeRepo(),
      });
      await submitWork(svc, { workflowId: other.id }, { agent: 'claude-code' });

      await svc.complete(ref, { force: true });
      const listed = await listWork(svc);
      expect(listed.find((e) => e.workflow_id === wf.id)).toMatchObject({
        state: 'done',
        outcome: 'completed outside the queue',
        running: false,
      });
      expect(listed.find((e) => e.workflow_id === other.id)).toMatchObject({ state: 'queued' });
      // the dead worker's own finish finds nothing left to finish
      expect(await store.workQueue!.finish(wf.id, dead.owner, 'done')).toBe(false);
    } finally {
      await store.close();
    }
  });
});
