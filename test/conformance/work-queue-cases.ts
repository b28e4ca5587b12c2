import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/storage/store.js';
import type { WorkFilter } from '../../src/core/index.js';
import type { SubmitInput, WorkQueue } from '../../src/storage/work-queue.js';
import type { StoreBackend } from './backend.js';
import { holder } from './lease-cases.js';

const profile = { agent: 'claude-code', agent_bin: null, context_window: null, max_sessions: null };
const work = (id: string, over: Partial<SubmitInput> = {}): SubmitInput => ({
  workflow_id: id,
  worktree: `/srv/work/${id}`,
  label: null,
  priority: 0,
  profile,
  submitted_by: 'tester',
  ...over,
});
const any: WorkFilter = { roots: ['/'], labels: [] };

/** Waits for a condition with a deadline (never a fixed sleep). */
async function until(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The work queue: the same contract on every backend that runs agents. */
export function workQueueCases(backend: StoreBackend) {
  describe(`WorkQueue on ${backend.name}`, () => {
    const opened: Store[] = [];
    const open = async (location: string) => {
      const store = await backend.open(location);
      opened.push(store);
      return store;
    };
    const queue = (s: Store): WorkQueue => {
      if (!s.workQueue) throw new Error(`${backend.name} has no work queue`);
      return s.workQueue;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('claims in queue order (priority, then oldest), takes each lease, and never hands a held one out again', async () => {
      const s = await open(await backend.newLocation());
      const q = queue(s);
      await q.submit(work('wf-a'));
      await until(
        async () => (await q.submit(work('wf-b'))).submitted_at > (await q.get('wf-a'))!.submitted_at,
      );
      await q.submit(work('wf-c', { priority: 5 }));
      const first = await q.claim(holder('w1', { kind: 'worker' }), 30_000, any, 2);
      expect(first.map((c) => c.entry.workflow_id)).toEqual(['wf-c', 'wf-a']);
      expect(first.every((c) => c.previous === null)).toBe(true);
      expect(first[0]!.entry).toMatchObject({ claimed_by: holder('w1').owner, attempts: 1, state: 'queued' });
      expect((await s.leases!.get('wf-c'))?.owner).toBe(holder('w1').owner);
      const second = await q.claim(holder('w2', { kind: 'worker' }), 30_000, any, 5);
      expect(second.map((c) => c.entry.workflow_id)).toEqual(['wf-b']);
      expect(await q.claim(holder('w3', { kind: 'worker' }), 30_000, any, 5)).toEqual([]);
      // Finished only by its claimer; a done row is never claimed again, a resubmission queues it again.
      expect(await q.finish('wf-c', holder('w2').owner, 'completed')).toBe(false);
      expect(await q.finish('wf-c', holder('w1').owner, 'completed')).toBe(true);
      await s.leases!.release('wf-c', holder('w1').owner);
      expect(await q.claim(holder('w3', { kind: 'worker' }), 30_000, any, 5)).toEqual([]);
      expect(await q.get('wf-c')).toMatchObject({ state: 'done', outcome: 'completed' });
      await q.submit(work('wf-c', { priority: 1 }));
      expect((await q.claim(holder('w3', { kind: 'worker' }), 30_000, any, 5))[0]?.entry).toMatchObject({
        workflow_id: 'wf-c',
        state: 'queued',
        attempts: 2,
        outcome: null,
      });
      expect((await q.list()).map((e) => e.workflow_id)).toEqual(['wf-c', 'wf-a', 'wf-b']);
    });

    it("a claimer that cannot start a row leaves it queued with why, skips it, and another's claim keeps why", async () => {
      const s = await open(await backend.newLocation());
      const q = queue(s);
      await q.submit(work('wf-1'));
      const [a] = await q.claim(holder('a', { kind: 'worker' }), 30_000, any, 1);
      expect(await q.refuse('wf-1', holder('b').owner, 'not its claim')).toBe(false);
      expect(await q.refuse('wf-1', holder('a').owner, 'pid 1 on a could not start it')).toBe(true);
      await s.leases!.release('wf-1', a!.entry.claimed_by!);
      expect(await q.get('wf-1')).toMatchObject({
        state: 'queued',
        outcome: 'pid 1 on a could not start it',
      });
      // the claimer skips it; another takes it, and the first one's refusal still stands (it still cannot)
      expect(await q.claim(holder('a', { kind: 'worker' }), 30_000, any, 5, ['wf-1', 'wf-x'])).toEqual([]);
      const [b] = await q.claim(holder('b', { kind: 'worker' }), 30_000, any, 5, ['wf-x']);
      expect(b?.entry).toMatchObject({
        workflow_id: 'wf-1',
        claimed_by: holder('b').owner,
        outcome: 'pid 1 on a could not start it',
        refusals: [{ owner: holder('a').owner, reason: 'pid 1 on a could not start it' }],
      });
      // a done row is not refused
      expect(await q.finish('wf-1', holder('b').owner, 'completed')).toBe(true);
      expect(await q.refuse('wf-1', holder('b').owner, 'late')).toBe(false);
    });

    it('keeps one refusal per worker: two that cannot start a row both say why, until each claims it again', async () => {
      const s = await open(await backend.newLocation());
      const q = queue(s);
      const a = holder('a', { kind: 'worker' });
      const b = holder('b', { kind: 'worker' });
      const c = holder('c', { kind: 'worker' });
      const refuseBy = async (h: typeof a, why: string) => {
        const [claimed] = await q.claim(h, 30_000, any, 1);
        expect(claimed?.entry.workflow_id).toBe('wf-1');
        expect(await q.refuse('wf-1', h.owner, why)).toBe(true);
        await s.leases!.release('wf-1', h.owner);
        return claimed!.entry;
      };
      await q.submit(work('wf-1'));
      await refuseBy(a, 'a: claude was not found');
      // the second claimer is told of the first refusal, and keeps it beside its own
      expect((await refuseBy(b, 'b: the Docker engine is down')).refusals).toMatchObject([
        { owner: a.owner, reason: 'a: claude was not found' },
      ]);
      const both = await q.get('wf-1');
      expect(both).toMatchObject({
        state: 'queued',
        outcome: 'a: claude was not found; b: the Docker engine is down',
        refusals: [
          { owner: a.owner, reason: 'a: claude was not found' },
          { owner: b.owner, reason: 'b: the Docker engine is down' },
        ],
      });
      expect(both!.refusals.every((r) => !Number.isNaN(Date.parse(r.at)))).toBe(true);
      expect((await q.list()).find((e) => e.workflow_id === 'wf-1')).toEqual(both);
      // a worker claiming it again clears only its own refusal; failing again (later), it says why again
      await until(async () => Date.now() > Date.parse(both!.refusals[1]!.at) + 1);
      const [again] = await q.claim(a, 30_000, any, 1);
      expect(again?.entry.refusals.map((r) => r.owner)).toEqual([b.owner]);
      expect(await q.refuse('wf-1', a.owner, 'a: still not found')).toBe(true);
      await s.leases!.release('wf-1', a.owner);
      expect((await q.get('wf-1'))?.refusals.map((r) => [r.owner, r.reason])).toEqual([
        [b.owner, 'b: the Docker engine is down'],
        [a.owner, 'a: still not found'],
      ]);
      // submitted again: every worker tries again
      expect((await q.submit(work('wf-1'))).refusals).toEqual([]);
      expect(await q.get('wf-1')).toMatchObject({ outcome: null, refusals: [] });
      // done: the refusals of its queued life go, and the outcome is how it ended
      await refuseBy(c, 'c: not executable');
      const [run] = await q.claim(a, 30_000, any, 1);
      expect(run?.entry.refusals.map((r) => r.owner)).toEqual([c.owner]);
      expect(await q.finish('wf-1', a.owner, 'completed')).toBe(true);
      expect(await q.get('wf-1')).toMatchObject({ state: 'done', outcome: 'completed', refusals: [] });
      await q.submit(work('wf-1'));
      expect(await q.get('wf-1')).toMatchObject({ state: 'queued', outcome: null, refusals: [] });
    });

    it('a worker takes only work under its worktree roots or with one of its labels', async () => {
      const q = queue(await open(await backend.newLocation()));
      await q.submit(work('wf-1', { worktree: '/srv/work' }));
      await q.submit(work('wf-2', { worktree: '/srv/work/deep/repo' }));
      await q.submit(work('wf-3', { worktree: '/srv/workers/repo' }));
      await q.submit(work('wf-4', { worktree: '/home/x/repo', label: 'gpu' }));
      await q.submit(work('wf-5', { worktree: '/home/y/repo', label: 'mac' }));
      expect(await q.claim(holder('none'), 30_000, { roots: [], labels: [] }, 10)).toEqual([]);
      const rooted = await q.claim(holder('r'), 30_000, { roots: ['/srv/work'], labels: [] }, 10);
      expect(rooted.map((c) => c.entry.workflow_id).sort()).toEqual(['wf-1', 'wf-2']);
      const labelled = await q.claim(holder('l'), 30_000, { roots: ['/nowhere'], labels: ['gpu', 'x'] }, 10);
      expect(labelled.map((c) => c.entry.workflow_id)).toEqual(['wf-4']);
      const rest = await q.claim(holder('z'), 30_000, { roots: ['/srv/workers/'], labels: ['mac'] }, 10);
      expect(rest.map((c) => c.entry.workflow_id).sort()).toEqual(['wf-3', 'wf-5']);
    });

    it('an expired lease is taken over by the claim, which names the previous owner', async () => {
      const s = await open(await backend.newLocation());
      const q = queue(s);
      await q.submit(work('wf-1'));
      const [a] = await q.claim(holder('dead', { kind: 'worker' }), 300, any, 1);
      expect(a?.entry.workflow_id).toBe('wf-1');
      expect(await q.claim(holder('b', { kind: 'worker' }), 30_000, any, 1)).toEqual([]);
      await until(async () => (await s.leases!.get('wf-1'))!.expired);
      const [b] = await q.claim(holder('b', { kind: 'worker' }), 30_000, any, 1);
      expect(b?.previous).toMatchObject({ owner: holder('dead').owner, expired: true });
      expect(b?.entry).toMatchObject({ claimed_by: holder('b').owner, attempts: 2 });
      expect((await s.leases!.get('wf-1'))?.owner).toBe(holder('b').owner);
      expect(await q.finish('wf-1', holder('dead').owner, 'late')).toBe(false);
    });

    it('of many workers claiming at once, each row goes to exactly one', async () => {
      const location = await backend.newLocation();
      const stores = await Promise.all(Array.from({ length: 4 }, () => open(location)));
      for (let i = 0; i < 6; i++) await queue(stores[0]!).submit(work(`wf-${i}`));
      const got = await Promise.all(
        stores.flatMap((s, i) =>
          [0, 1].map((j) => queue(s).claim(holder(`w${i}-${j}`, { kind: 'worker' }), 30_000, any, 2)),
        ),
      );
      const ids = got.flat().map((c) => c.entry.workflow_id);
      expect(ids.sort()).toEqual(['wf-0', 'wf-1', 'wf-2', 'wf-3', 'wf-4', 'wf-5']);
      for (const c of got.flat())
        expect((await stores[0]!.leases!.get(c.entry.workflow_id))?.owner).toBe(c.entry.claimed_by);
      // One row, eight claimers at once: one wins, and holds its lease.
      await queue(stores[0]!).submit(work('wf-one'));
      const one = await Promise.all(
        stores.flatMap((s, i) =>
          [0, 1].map((j) => queue(s).claim(holder(`x${i}-${j}`, { kind: 'worker' }), 30_000, any, 1)),
        ),
      );
      const winners = one.flat();
      expect(winners.map((c) => c.entry.workflow_id)).toEqual(['wf-one']);
      expect((await stores[0]!.leases!.get('wf-one'))?.owner).toBe(winners[0]!.entry.claimed_by);
    });
  });
}
