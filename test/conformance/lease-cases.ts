import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeaseHolder, LeaseRegistry } from '../../src/storage/lease-registry.js';
import type { Store } from '../../src/storage/store.js';
import type { StoreBackend } from './backend.js';

export const holder = (name: string, over: Partial<LeaseHolder> = {}): LeaseHolder => ({
  owner: `host-${name}:${1000 + name.length}:777:${name}`,
  host: `host-${name}`,
  pid: 1000 + name.length,
  pid_start_time: '777',
  kind: 'run',
  command: `baton run (${name})`,
  ...over,
});

/** Waits for a condition with a deadline (never a fixed sleep). */
async function until(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The ownership lease: the same contract on every backend that runs agents. */
export function leaseCases(backend: StoreBackend) {
  describe(`LeaseRegistry on ${backend.name}`, () => {
    const opened: Store[] = [];
    const open = async (location: string) => {
      const store = await backend.open(location);
      opened.push(store);
      return store;
    };
    const leases = (s: Store): LeaseRegistry => {
      if (!s.leases) throw new Error(`${backend.name} has no lease registry`);
      return s.leases;
    };
    afterEach(async () => {
      vi.useRealTimers();
      for (const s of opened.splice(0)) await s.close();
    });

    it('a free lease is taken; another holder is refused and told who holds it; the holder renews it', async () => {
      const l = leases(await open(await backend.newLocation()));
      const a = await l.acquire('wf-1', holder('a'), 30_000);
      expect(a.acquired).toBe(true);
      expect(a.lease).toMatchObject({
        workflow_id: 'wf-1',
        owner: holder('a').owner,
        kind: 'run',
        expired: false,
      });
      expect(Date.parse(a.lease.expires_at) - Date.parse(a.lease.heartbeat_at)).toBe(30_000);
      const b = await l.acquire('wf-1', holder('b'), 30_000);
      expect(b.acquired).toBe(false);
      expect(b.lease).toMatchObject({
        owner: holder('a').owner,
        host: 'host-a',
        pid: 1001,
        command: 'baton run (a)',
      });
      await until(async () => (await l.get('wf-1'))!.now > a.lease.heartbeat_at);
      const again = await l.acquire('wf-1', holder('a'), 60_000);
      expect(again.acquired).toBe(true);
      expect(again.lease.acquired_at).toBe(a.lease.acquired_at);
      expect(again.lease.expires_at > a.lease.expires_at).toBe(true);
      // Another workflow's lease is independent.
      expect((await l.acquire('wf-2', holder('b'), 30_000)).acquired).toBe(true);
      expect((await l.list()).map((x) => [x.workflow_id, x.owner])).toEqual([
        ['wf-1', holder('a').owner],
        ['wf-2', holder('b').owner],
      ]);
    });

    it('of many processes asking for one lease at once, exactly one gets it', async () => {
      const location = await backend.newLocation();
      const stores = await Promise.all(Array.from({ length: 6 }, () => open(location)));
      const results = await Promise.all(
        stores.flatMap((s, i) =>
          [0, 1].map((j) => leases(s).acquire('wf-race', holder(`p${i}-${j}`), 30_000)),
        ),
      );
      const winners = results.filter((r) => r.acquired);
      expect(winners).toHaveLength(1);
      const owner = winners[0]!.lease.owner;
      for (const r of results) expect(r.lease.owner).toBe(owner);
      expect((await leases(stores[0]!).get('wf-race'))?.owner).toBe(owner);
    });

    it('renew moves only the owner’s lease on; release is the owner’s alone', async () => {
      const l = leases(await open(await backend.newLocation()));
      const a = await l.acquire('wf-1', holder('a'), 1_000);
      expect(await l.renew('wf-1', holder('b').owner, 10_000)).toBeNull();
      await until(async () => (await l.get('wf-1'))!.now > a.lease.heartbeat_at);
      const r = await l.renew('wf-1', holder('a').owner, 10_000);
      expect(r?.owner).toBe(holder('a').owner);
      expect(r!.heartbeat_at > a.lease.heartbeat_at).toBe(true);
      expect(Date.parse(r!.expires_at) - Date.parse(r!.heartbeat_at)).toBe(10_000);
      expect(await l.release('wf-1', holder('b').owner)).toBe(false);
      expect(await l.release('wf-1', holder('a').owner)).toBe(true);
      expect(await l.get('wf-1')).toBeNull();
      expect(await l.renew('wf-1', holder('a').owner, 10_000)).toBeNull();
      expect((await l.acquire('wf-1', holder('b'), 1_000)).acquired).toBe(true);
    });

    it('a takeover is compare-and-set on the old owner, and with onlyIfExpired waits for its expiry', async () => {
      const l = leases(await open(await backend.newLocation()));
      await l.acquire('wf-1', holder('a'), 60_000);
      const early = await l.acquire('wf-1', holder('b'), 60_000, {
        replace: { owner: holder('a').owner, onlyIfExpired: true },
      });
      expect(early.acquired).toBe(false);
      const wrong = await l.acquire('wf-1', holder('b'), 60_000, {
        replace: { owner: holder('c').owner, onlyIfExpired: false },
      });
      expect(wrong.acquired).toBe(false);
      const forced = await l.acquire('wf-1', holder('b'), 60_000, {
        replace: { owner: holder('a').owner, onlyIfExpired: false },
      });
      expect(forced.acquired).toBe(true);
      expect(forced.lease.owner).toBe(holder('b').owner);
      // The old owner learns it lost the lease at its next heartbeat.
      expect(await l.renew('wf-1', holder('a').owner, 60_000)).toBeNull();

      await l.acquire('wf-2', holder('a'), 50);
      await until(async () => (await l.get('wf-2'))!.expired);
      const late = await l.acquire('wf-2', holder('b'), 60_000, {
        replace: { owner: holder('a').owner, onlyIfExpired: true },
      });
      expect(late.acquired).toBe(true);
      expect(late.lease.expired).toBe(false);
      // An expired lease is still its owner's until someone takes it over: the owner can renew it.
      await l.acquire('wf-3', holder('a'), 0);
      expect((await l.get('wf-3'))?.expired).toBe(true);
      expect((await l.acquire('wf-3', holder('b'), 60_000)).acquired).toBe(false);
      expect((await l.renew('wf-3', holder('a').owner, 60_000))?.expired).toBe(false);
    });

    it("expiry is judged by the store's clock, whatever the caller's clock says", async () => {
      const l = leases(await open(await backend.newLocation()));
      const before = Date.now();
      // This process believes it is 2001; the store does not.
      vi.useFakeTimers({ now: new Date('2001-01-01T00:00:00Z'), toFake: ['Date'] });
      const a = await l.acquire('wf-1', holder('a'), 60_000);
      vi.useRealTimers();
      expect(Date.parse(a.lease.heartbeat_at)).toBeGreaterThanOrEqual(before - 1_000);
      expect(Date.parse(a.lease.now)).toBeGreaterThanOrEqual(before - 1_000);
      expect(a.lease.expired).toBe(false);
      const zero = await l.acquire('wf-2', holder('a'), 0);
      expect(zero.lease.expired).toBe(true);
    });
  });
}
