import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchAgent } from '../../src/core/index.js';
import { submitWork, type BatonService } from '../../src/service/index.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

// What goes on with an in-progress workflow Baton's own driver runs, when no driver holds it: real SQLite store,
// leases and work queue; the driver is this test process.

const tasks = [
  { id: 'T1', title: 'Schema' },
  { id: 'T2', title: 'API', deps: ['T1'] },
];
const me = (kind: LeaseHolder['kind']): LeaseHolder => ({
  owner: `${hostname()}:${process.pid}:test:${kind}`,
  host: hostname(),
  pid: process.pid,
  pid_start_time: null,
  kind,
  command: kind === 'worker' ? 'baton worker' : 'baton run --agent claude-code',
});

/** The step the status reports. */
const nextOf = async (svc: BatonService, ref: { workflowId: string }) =>
  (await svc.queries.status(await svc.resolve(ref))).next_step;

/** A workflow a driver launched an agent for, T1 under way, and no driver holding it now. */
async function driven() {
  const svc = makeService(sqliteStore());
  const wf = await svc.create({ title: 'driven', tasks, worktree: makeRepo() });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'T1');
  await svc.runner.run(wf.id, (d) =>
    launchAgent(d, { agent: 'claude-code', executor_id: 'ex-1', resume_token: null, fallback: null }),
  );
  return { svc, ref, id: wf.id, leases: svc.store.leases!, queue: svc.store.workQueue! };
}

describe('the next step of an in-progress workflow nothing runs', () => {
  it('`baton run -w` while no driver holds it; nothing while one does, or when an agent of its own (hooks) runs it', async () => {
    const { svc, ref, id, leases } = await driven();
    const run = { command: `baton run -w ${id}`, reason: expect.stringContaining('nothing runs it') };
    expect(await nextOf(svc, ref)).toEqual(run);
    const ss = await svc.sessionStatus(ref);
    expect(ss).toMatchObject({ is_agent_running: false, resume_reason: 'agent_not_running' });
    expect(ss.agent_running_note).toBe(
      `no (it is run by \`baton run\`: nothing runs it until \`baton run -w ${id}\`)`,
    );

    const driver = me('run');
    await leases.acquire(id, driver, 30_000);
    expect(await nextOf(svc, ref)).toBeNull();
    expect((await svc.sessionStatus(ref)).is_agent_running).toBe(true);
    await leases.release(id, driver.owner);

    // an agent's hooks report into the current session: it runs the workflow, nobody need start one
    await svc.runner.run(id, (d) =>
      d.emit({ type: 'session.linked', data: { agent: { name: 'claude-code', session_id: 'abc' } } }),
    );
    expect(await nextOf(svc, ref)).toBeNull();
    // and a workflow no driver ever ran (tracked by hand, or by hooks) has no such step
    const plain = await svc.create({ title: 'by hand', tasks, worktree: makeRepo() });
    await svc.startTask({ workflowId: plain.id }, 'T1');
    expect(await nextOf(svc, { workflowId: plain.id })).toBeNull();
  });

  it('resume refuses with the step; a paused one resumed is told it', async () => {
    const { svc, ref, id } = await driven();
    await expect(svc.resume(ref)).rejects.toMatchObject({
      code: 'invalid_transition',
      message: expect.stringMatching(
        new RegExp(
          `^cannot resume: the workflow is in_progress, but nothing runs it .*\`baton run -w ${id}\``,
        ),
      ),
      details: { command: `baton run -w ${id}` },
    });
    await svc.pause(ref, { force: true });
    const r = await svc.resume(ref);
    expect(r.next_step).toEqual({ command: `baton run -w ${id}`, reason: expect.any(String) });
  });

  it('work a worker ran that a person paused: recover (like resume) queues it again, and the step is the queue', async () => {
    const { svc, ref, id, leases, queue } = await driven();
    await submitWork(svc, ref, { agent: 'claude-code' });
    const worker = me('worker');
    expect(await queue.claim(worker, 30_000, { roots: ['/'], labels: [] }, 1)).toHaveLength(1);
    await svc.pause(ref, { reason: 'lunch', force: true });
    expect(await queue.finish(id, worker.owner, 'paused: lunch')).toBe(true);
    await leases.release(id, worker.owner);

    // the worker that ran it is running: it goes on with it
    await svc.store.workers!.heartbeat(worker, { roots: ['/'], labels: [] }, 30_000);
    const r = await svc.recover(ref, 'live_state', null);
    expect(r.requeued).toBe(true);
    expect(r.next_step).toEqual({
      command: null,
      reason: 'it is queued for the workers, one of which goes on with it (`baton queue`)',
    });
    expect((await queue.get(id))?.state).toBe('queued');
    // once it stops, nothing can take it: the step says so, with the worker that would
    await svc.store.workers!.remove(worker.owner);
    const next = await nextOf(svc, ref);
    expect(next?.command).toBeNull();
    const root = dirname((await svc.runner.load(id)).worktree);
    expect(next?.reason).toBe(
      `it is queued for the workers, but nothing can take it (no worker is registered: none runs, or a \`baton worker\` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary)): \`baton worker --worktree-root ${root}\` would`,
    );
    expect((await svc.queries.status(await svc.resolve(ref))).queue).toEqual({
      state: 'waiting',
      priority: 0,
      takers: 0,
      stuck: {
        reason:
          'no worker is registered: none runs, or a `baton worker` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary)',
        command: `baton worker --worktree-root ${root}`,
      },
    });
    // a worker from before the registry runs other work (it holds a lease) but never registered: named, to restart
    const other = await svc.create({ title: 'other', tasks, worktree: makeRepo() });
    const old = { ...me('worker'), owner: 'oldbox:4242:0:old', host: 'oldbox', pid: 4242 };
    expect((await leases.acquire(other.id, old, 30_000)).acquired).toBe(true);
    expect((await svc.queries.status(await svc.resolve(ref))).queue?.stuck?.reason).toBe(
      'no worker is registered; a worker at work (pid 4242 on oldbox) is not registered, so what it reaches is not known: a `baton worker` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary)',
    );
  });
});
