import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/storage/store.js';
import { GONE_WORKER_KEPT_MS, type WorkerRegistry } from '../../src/storage/worker-registry.js';
import type { StoreBackend } from './backend.js';
import { holder } from './lease-cases.js';

/** Waits for a condition with a deadline (never a fixed sleep). */
async function until(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Moves a worker's expiry back by `ms`, with the backend's own driver: a worker that died that long ago. */
async function ageWorker(backend: StoreBackend, location: string, owner: string, ms: number) {
  const sql = 'UPDATE workers SET expires_at = expires_at - ';
  if (backend.name === 'sqlite') {
    const db = new Database(location);
    db.prepare(`${sql}? WHERE owner = ?`).run(ms, owner);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  await client.query(`${sql}$1 WHERE owner = $2`, [ms, owner]);
  await client.end();
}

/** The registry of the workers that take queued work: the same contract on every backend that queues work. */
export function workerCases(backend: StoreBackend) {
  describe(`WorkerRegistry on ${backend.name}`, () => {
    const opened: Store[] = [];
    const open = async (location: string) => {
      const store = await backend.open(location);
      opened.push(store);
      return store;
    };
    const workers = (s: Store): WorkerRegistry => {
      if (!s.workers) throw new Error(`${backend.name} has no worker registry`);
      return s.workers;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('a heartbeat registers the worker with what it reaches, and moves on; a stopping worker removes its row', async () => {
      const w = workers(await open(await backend.newLocation()));
      const a = holder('a', { kind: 'worker', command: 'baton worker --concurrency 2' });
      await w.heartbeat(a, { roots: ['/srv/work'], labels: ['gpu'] }, 30_000);
      const [first, ...rest] = await w.list();
      expect(rest).toEqual([]);
      expect(first).toMatchObject({
        owner: a.owner,
        host: 'host-a',
        pid: 1001,
        command: 'baton worker --concurrency 2',
        roots: ['/srv/work'],
        labels: ['gpu'],
        expired: false,
      });
      expect(Date.parse(first!.expires_at) - Date.parse(first!.heartbeat_at)).toBe(30_000);
      await until(async () => (await w.list())[0]!.now > first!.heartbeat_at);
      await w.heartbeat(a, { roots: ['/srv/work', '/home/ci'], labels: [] }, 30_000);
      const [again] = await w.list();
      expect(again!.started_at).toBe(first!.started_at);
      expect(again!.heartbeat_at > first!.heartbeat_at).toBe(true);
      expect(again!.roots).toEqual(['/srv/work', '/home/ci']);
      const b = holder('b', { kind: 'worker' });
      await w.heartbeat(b, { roots: [], labels: ['mac'] }, 30_000);
      expect((await w.list()).map((x) => x.owner)).toEqual([a.owner, b.owner]);
      await w.remove(a.owner);
      expect((await w.list()).map((x) => x.owner)).toEqual([b.owner]);
    });

    it("a worker that stops heartbeating expires by the store's clock; one gone longer than a day is removed", async () => {
      const location = await backend.newLocation();
      const w = workers(await open(location));
      const a = holder('a', { kind: 'worker' });
      const b = holder('b', { kind: 'worker' });
      await w.heartbeat(a, { roots: ['/srv'], labels: [] }, 0);
      await until(async () => (await w.list())[0]!.expired);
      // gone, but kept: a reader can say the worker that could take the work stopped heartbeating
      await w.heartbeat(b, { roots: ['/srv'], labels: [] }, 30_000);
      expect((await w.list()).map((x) => [x.owner, x.expired])).toEqual([
        [a.owner, true],
        [b.owner, false],
      ]);
      await ageWorker(backend, location, a.owner, GONE_WORKER_KEPT_MS + 60_000);
      await w.heartbeat(b, { roots: ['/srv'], labels: [] }, 30_000);
      expect((await w.list()).map((x) => x.owner)).toEqual([b.owner]);
      // a worker back after that long registers again
      await w.heartbeat(a, { roots: ['/srv'], labels: [] }, 30_000);
      expect((await w.list()).map((x) => [x.owner, x.expired])).toEqual([
        [b.owner, false],
        [a.owner, false],
      ]);
    });
  });
}
