import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { localProcessPorts } from '../../src/executors/local/process-ports.js';
import { submitWork } from '../../src/service/index.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

// A worker of this machine that died (its process gone) before its registry row expired: real SQLite store, real
// process liveness (a child process that exited).

describe('queued work whose only worker died within its lease window', () => {
  it('status does not say it waits for that worker: nothing can take it, and the worker to start', async () => {
    const svc = makeService(sqliteStore(), {
      watch: { ports: localProcessPorts(), factory: { forRow: () => null } },
    });
    const wf = await svc.create({ title: 'q', tasks: [{ id: 'T1', title: 'one' }], worktree: makeRepo() });
    const ref = { workflowId: wf.id };
    await submitWork(svc, ref, { agent: 'claude-code' });
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const worker: LeaseHolder = {
      owner: `${hostname()}:${gone}:1:worker`,
      host: hostname(),
      pid: gone,
      pid_start_time: '1',
      kind: 'worker',
      command: 'baton worker',
    };
    await svc.store.workers!.heartbeat(worker, { roots: ['/'], labels: [] }, 60_000);
    const queue = (await svc.queries.status(await svc.resolve(ref))).queue;
    expect(queue).toMatchObject({ state: 'waiting', takers: 0 });
    expect(queue?.stuck?.reason).toContain(`stopped heartbeating (pid ${gone} on ${hostname()}`);

    // a live worker of this machine (this process) is waited for
    const alive: LeaseHolder = { ...worker, owner: `${hostname()}:${process.pid}:1:w`, pid: process.pid };
    await svc.store.workers!.heartbeat(alive, { roots: ['/'], labels: [] }, 60_000);
    expect((await svc.queries.status(await svc.resolve(ref))).queue).toMatchObject({
      takers: 1,
      stuck: null,
    });
    await svc.store.close();
  });
});
