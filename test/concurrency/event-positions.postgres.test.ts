import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/storage/migrations.js';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import { GroupCommitStore } from '../../src/storage/group-commit.js';
import type { Store, StoredEvent } from '../../src/storage/store.js';
import { createWorkflow, historyBatch, loaded } from '../conformance/fixtures.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { makeService } from '../helpers/service.js';
import { until } from '../helpers/until.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function open(url: string, poolSize = 4): Promise<PostgresStore> {
  const store = await PostgresStore.open(url, { poolSize });
  closers.push(() => store.close());
  return store;
}

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  closers.push(() => c.end());
  return c;
}

const key = (e: StoredEvent) => `${e.workflow_id}#${e.seq}`;

/** A live subscriber as event-tail.ts is one: polls `readEventsSince` from its cursor, pages of `page`. */
function follower(store: Store, page: number, workflowId?: string) {
  const seen: StoredEvent[] = [];
  let cursor = 0;
  const poll = async () => {
    for (;;) {
      const batch = await store.readEventsSince(cursor, page, workflowId);
      for (const e of batch) {
        if (e.position <= cursor) throw new Error(`position ${e.position} after cursor ${cursor}`);
        cursor = e.position;
        seen.push(e);
      }
      if (batch.length < page) return;
    }
  };
  return { seen, poll };
}

/** Every event of the log exactly once, in the log's own order, and per workflow in `seq` order from 1. */
async function expectFollowedWhole(store: Store, seen: StoredEvent[], workflowId?: string) {
  const log = await store.readEventsSince(0, 1_000_000, workflowId);
  expect(seen.map(key)).toEqual(log.map(key));
  expect(seen.map((e) => e.position)).toEqual(log.map((e) => e.position));
  expect(new Set(seen.map(key)).size).toBe(seen.length);
  const next = new Map<string, number>();
  for (const e of seen) {
    expect(e.seq).toBe((next.get(e.workflow_id) ?? 0) + 1);
    next.set(e.workflow_id, e.seq);
  }
  for (const [id, seq] of next) expect((await loaded(store, id)).version).toBe(seq);
}

describe('event positions on PostgreSQL without a global append lock', () => {
  it('a transaction that commits after later ones reaches a concurrent follower once, after them, in order', async () => {
    const url = await freshPostgresUrl();
    const store = await open(url, 8);
    const svc = makeService(store);
    const a = await createWorkflow(svc, 'slow');
    const b = await createWorkflow(svc, 'fast');
    const tail = follower(store, 1000);
    await tail.poll();

    // Another transaction holds the key (a, seq) uncommitted, so the store's commit to `a` draws its event
    // entries and then waits in the unique check of its INSERT, its transaction open, while `b` commits past it.
    const blocker = await client(url);
    await blocker.query('BEGIN');
    await blocker.query(
      "INSERT INTO events (workflow_id, seq, type, at, actor, session_number, task_id, v, data) VALUES ($1, $2, 'blocker', '', 'test', NULL, NULL, 1, '{}')",
      [a.id, a.version + 1],
    );
    const slow = store.commit(historyBatch(await loaded(store, a.id), 3, 'slow'));
    const admin = await client(url);
    await until('the commit to a to wait inside its INSERT', async () => {
      const r = await admin.query(
        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO events%' AND pid <> $1",
        [(blocker as unknown as { processID: number }).processID],
      );
      return r.rowCount === 1;
    });
    for (let i = 0; i < 3; i++) {
      await store.commit(historyBatch(await loaded(store, b.id), 2, `fast ${i}`));
      await tail.poll();
    }
    expect(tail.seen.filter((e) => e.workflow_id === b.id).length).toBe(b.version + 6);
    expect(tail.seen.some((e) => e.workflow_id === a.id && e.seq > a.version)).toBe(false);

    await blocker.query('ROLLBACK');
    await slow;
    await until(
      'the follower to see the slow commit',
      async () => {
        await tail.poll();
        return tail.seen.length === a.version + 3 + b.version + 6;
      },
      10_000,
    );
    await expectFollowedWhole(store, tail.seen);
    // It really committed out of order: its first event was inserted (drew its entry) before b's, yet follows them.
    const entries = await admin.query<{ workflow_id: string; entry: string }>(
      'SELECT workflow_id, entry FROM events WHERE (workflow_id = $1 AND seq > $2) OR (workflow_id = $3 AND seq > $4)',
      [a.id, a.version, b.id, b.version],
    );
    const slowEntries = entries.rows.filter((r) => r.workflow_id === a.id).map((r) => Number(r.entry));
    const fastEntries = entries.rows.filter((r) => r.workflow_id === b.id).map((r) => Number(r.entry));
    expect(Math.min(...slowEntries)).toBeLessThan(Math.min(...fastEntries));
    expect(tail.seen.slice(-3).map((e) => e.workflow_id)).toEqual([a.id, a.id, a.id]);
  });

  it('many writers on many workflows (two processes, one with group commit): followers get the whole log once, in order', async () => {
    const url = await freshPostgresUrl();
    const plain = await open(url, 12);
    const grouped = new GroupCommitStore(await open(url, 4));
    const reader = await open(url, 2);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createWorkflow(makeService(plain), `w${i}`)).id);
    const all = follower(reader, 7);
    const one = follower(reader, 3, ids[0]);
    await all.poll();
    await one.poll();

    let writing = true;
    const following = (async () => {
      while (writing) {
        await all.poll();
        await one.poll();
      }
    })();
    // 24 writers, two per workflow (so commits of one workflow also race and some are refused and retried),
    // each committing 1 to 3 events 20 times.
    const writers = Array.from({ length: 24 }, async (_, w) => {
      const store: Store = w % 3 === 0 ? grouped : plain;
      const id = ids[w % ids.length]!;
      for (let k = 0; k < 20;) {
        try {
          await store.commit(historyBatch(await loaded(store, id), 1 + ((w + k) % 3), `w${w}`));
          k++;
        } catch (e) {
          if ((e as { code?: string }).code !== 'conflict') throw e;
        }
      }
    });
    try {
      await Promise.all(writers);
    } finally {
      writing = false;
      await following;
    }
    await all.poll();
    await one.poll();
    await expectFollowedWhole(reader, all.seen);
    await expectFollowedWhole(reader, one.seen, ids[0]);
    const versions = await Promise.all(ids.map(async (id) => (await loaded(reader, id)).version));
    expect(all.seen.length).toBe(versions.reduce((x, y) => x + y, 0));
  });

  it('migrates an existing database: old positions kept, new ones above every value the old sequence gave', async () => {
    const url = await freshPostgresUrl();
    const c = await client(url);
    await c.query(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    for (const m of migrations.filter((x) => x.version <= 7)) {
      await c.query(m.postgres);
      await c.query("INSERT INTO schema_migrations VALUES ($1, $2, '')", [m.version, m.name]);
    }
    const event = (wf: string, seq: number) =>
      c.query(
        "INSERT INTO events (workflow_id, seq, type, at, actor, v, data) VALUES ($1, $2, 'history.recorded', '', 'test', 1, '{}')",
        [wf, seq],
      );
    for (let s = 1; s <= 3; s++) await event('wf-old', s);
    await event('wf-gone', 1);
    await c.query("DELETE FROM events WHERE workflow_id = 'wf-gone'");

    const store = await open(url);
    const kept = await store.readEventsSince(0, 100);
    expect(kept.map((e) => [e.position, e.seq])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    const wf = await createWorkflow(makeService(store), 'new');
    const fresh = await store.readEventsSince(3, 100);
    expect(fresh.map((e) => e.workflow_id)).toEqual(fresh.map(() => wf.id));
    expect(fresh.map((e) => e.position)).toEqual(fresh.map((_, i) => 5 + i));
  });
});
