import { describe, expect, it } from 'vitest';
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
