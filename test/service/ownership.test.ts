import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { submitWork } from '../../src/service/index.js';
import { claimWorkflow, CrashWatch, type ProcessPorts } from '../../src/service/runtime/index.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

/**
 * Processes of another host cannot be checked from here: these ports say so (`unknown`), as the real ones do for a
 * lease whose host is not this one. Everything else is real: the SQLite store, the lease, the service.
 */
const ports = (host: string): ProcessPorts => ({
  hostname: host,
  holder: (kind, command): LeaseHolder => ({
    owner: `${host}:100:1:me`,
    host,
    pid: 100,
    pid_start_time: '1',
    kind,
    command,
  }),
  liveness: (p) => (p.host === host ? 'alive' : 'unknown'),
  stop: async () => false,
});
const other: LeaseHolder = {
  owner: 'there:42:7:them',
  host: 'there',
  pid: 42,
  pid_start_time: '7',
  kind: 'worker',
  command: 'baton worker',
};
const factory = { forRow: () => null };

async function setup() {
  const here = ports('here');
  const svc = makeService(sqliteStore(), { watch: { ports: here, factory } });
  const wf = await svc.create({
    title: 'owned',
    tasks: [{ id: 'T1', title: 'one' }],
    worktree: makeRepo(),
  });
  await svc.startTask({ workflowId: wf.id }, 'T1');
  const watch = svc.watch as CrashWatch;
  const claim = (takeOver: boolean, ttlMs = 30_000) =>
    claimWorkflow(svc, wf.id, {
      ports: here,
      kind: 'run',
      command: 'baton run --agent x',
      retry: `baton run -w ${wf.id}`,
      takeOver,
      ttlMs,
      recoverCrashed: (l, h, x) => watch.recoverCrashed(l, h, x),
    });
  return { svc, id: wf.id, leases: svc.store.leases!, claim };
}

describe('ownership across hosts: never guess', () => {
  it("another host's lease that still runs is respected: refused, and no command takes it for a crash", async () => {
    const { svc, id, leases, claim } = await setup();
    await leases.acquire(id, other, 60_000);
    await expect(claim(false)).rejects.toThrow(/already has a driver: `baton worker` \(pid 42 on there/);
    expect((await svc.resolve({ workflowId: id })).status).toBe('in_progress');
    expect((await leases.get(id))?.owner).toBe(other.owner);
  });

  it("another host's lease expired by the store's clock: the next read interrupts the workflow as a crash", async () => {
    const { svc, id, leases } = await setup();
    await leases.acquire(id, other, 1);
    while (!(await leases.get(id))?.expired) await new Promise((r) => setTimeout(r, 5));
    const s = await svc.resolve({ workflowId: id });
    expect(s.status).toBe('interrupted');
    expect(s.interruption).toMatchObject({ detected_by: 'lease', last_known_state: { task: 'T1' } });
    expect(s.interrupt_reason).toContain('`baton worker` (pid 42 on there');
    expect(await leases.get(id)).toBeNull();
  });

  it('a queued workflow whose worker stopped: the line says a worker takes it over, not `baton run`', async () => {
    const notices: string[] = [];
    const svc = makeService(sqliteStore(), {
      watch: { ports: ports('here'), factory, notice: (l) => notices.push(l) },
    });
    const repo = makeRepo();
    const wf = await svc.create({ title: 'queued', tasks: [{ id: 'T1', title: 'one' }], worktree: repo });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    await submitWork(svc, ref, { agent: 'claude-code' });
    const leases = svc.store.leases!;
    expect(await svc.store.workQueue!.claim(other, 1, { roots: ['/'], labels: [] }, 1)).toHaveLength(1);
    while (!(await leases.get(wf.id))?.expired) await new Promise((r) => setTimeout(r, 5));
    expect((await svc.resolve(ref)).status).toBe('interrupted');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('it is queued, so a worker that reaches it takes it over and resumes it');
    expect(notices[0]).toContain(`start one: \`baton worker --worktree-root ${dirname(repo)}\``);
    expect(notices[0]).not.toContain('baton run');
  });

  it('--take-over waits for an unverifiable lease to expire, then takes it; a lease that keeps beating refuses', async () => {
    const a = await setup();
    await a.leases.acquire(a.id, other, 300);
    const claimed = await a.claim(true);
    expect((await a.leases.get(a.id))?.owner).toBe('here:100:1:me');
    expect((await a.svc.runner.load(a.id)).status).toBe('interrupted');
    await claimed.lease.release();

    const b = await setup();
    await b.leases.acquire(b.id, other, 400);
    const beating = setInterval(() => void b.leases.renew(b.id, other.owner, 400), 50);
    try {
      await expect(b.claim(true)).rejects.toThrow(
        /is alive: `baton worker` .* keeps heartbeating; stop it on there/,
      );
    } finally {
      clearInterval(beating);
    }
    expect((await b.svc.runner.load(b.id)).status).toBe('in_progress');
  });
});
