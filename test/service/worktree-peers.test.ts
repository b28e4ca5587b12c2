import { describe, expect, it } from 'vitest';
import type { ProcessPorts } from '../../src/service/runtime/index.js';
import { sharedWorktreeCheck, worktreePeers } from '../../src/service/runtime/worktree-peers.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

/**
 * Which drivers `baton run` counts as working in its worktree, on a real SQLite store with real leases: the
 * processes are described by ports that say pid 100 and 200 run here, pid 300 ended, and a process of another host
 * cannot be checked (`unknown`), as the real ports do.
 */
const ports: ProcessPorts = {
  hostname: 'here',
  holder: (kind, command) => ({
    owner: 'here:1:1:me',
    host: 'here',
    pid: 1,
    pid_start_time: '1',
    kind,
    command,
  }),
  liveness: (p) => (p.host !== 'here' ? 'unknown' : p.pid === 300 ? 'dead' : 'alive'),
  stop: async () => false,
};
const holder = (pid: number, over: Partial<LeaseHolder> = {}): LeaseHolder => ({
  owner: `here:${pid}:1:run`,
  host: 'here',
  pid,
  pid_start_time: '1',
  kind: 'run',
  command: `baton run --agent claude-code (${pid})`,
  ...over,
});

async function setup() {
  const svc = makeService(sqliteStore());
  const shared = makeRepo();
  const make = async (title: string, worktree: string) =>
    (await svc.create({ title, tasks: [{ id: 'T1', title: 'one' }], worktree })).id;
  return { svc, shared, make, leases: svc.store.leases! };
}

describe('worktreePeers: the live drivers of the other workflows of a worktree, on this host', () => {
  it('counts a live driver of another workflow of the same worktree, and only that one', async () => {
    const { svc, shared, make, leases } = await setup();
    const mine = await make('mine', shared);
    const peer = await make('peer', shared);
    const elsewhere = await make('another worktree', makeRepo());
    const ended = await make('driver ended', shared);
    const remote = await make('driven from another host', shared);
    const recovering = await make('recovering', shared);
    await leases.acquire(peer, holder(100), 60_000);
    await leases.acquire(elsewhere, holder(200), 60_000);
    await leases.acquire(ended, holder(300), 60_000);
    await leases.acquire(remote, holder(400, { host: 'there', owner: 'there:400:1:run' }), 60_000);
    await leases.acquire(recovering, holder(100, { kind: 'recovery', owner: 'here:100:1:rec' }), 60_000);
    const peers = await worktreePeers(svc, mine, shared, ports);
    expect(peers.map((l) => l.workflow_id)).toEqual([peer]);
  });

  it("leaves out this workflow's own driver (a take-over is the claim's business) and a stale lease", async () => {
    const { svc, shared, make, leases } = await setup();
    const mine = await make('mine', shared);
    const stale = await make('stale', shared);
    await leases.acquire(mine, holder(100), 60_000);
    // its process ended without releasing the lease: not a driver, however long the lease has to run
    await leases.acquire(stale, holder(300), 60_000);
    expect(await worktreePeers(svc, mine, shared, ports)).toEqual([]);
  });

  it('refuses with the peers named and what to do, or warns under --share-worktree', async () => {
    const { svc, shared, make, leases } = await setup();
    const mine = await make('mine', shared);
    const peer = await make('peer', shared);
    await leases.acquire(peer, holder(100), 60_000);
    const peers = await worktreePeers(svc, mine, shared, ports);
    expect(sharedWorktreeCheck([], 'refuse', 'baton run')).toEqual({ warning: null });
    expect(() => sharedWorktreeCheck(peers, 'refuse', `baton run -w ${mine}`)).toThrow(
      new RegExp(
        `\\(pid 100 on here, last heartbeat \\d+ s ago\\) drives workflow ${peer} in this worktree: both agents would edit the same files[^]*\`baton run -w ${mine} --share-worktree\``,
      ),
    );
    expect(sharedWorktreeCheck(peers, 'warn', 'baton run').warning).toMatch(
      new RegExp(
        `^warning: .*drives workflow ${peer} in this worktree: both agents will edit the same files`,
      ),
    );
  });
});
