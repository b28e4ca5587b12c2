import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BatonService } from '../dist/service/index.js';
import { GroupCommitStore } from '../dist/storage/group-commit.js';
import { PostgresStore } from '../dist/storage/postgres/index.js';
import { benchPostgres } from './postgres.js';
import { fmt } from './stats.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const noGit = {
  resolveWorktree: async (dir) => dir,
  gitStart: async () => null,
  owner: async () => null,
  gitMark: async () => null,
  captureGitState: async () => ({ state: null, note: 'bench: no git' }),
};
const tasks = [{ id: 'T1', title: 'task 1', deps: [] }];
const service = (store) =>
  new BatonService(store, noGit, { pauseTimeoutMs: 300_000, staleAfterMs: 7 * 86_400_000 });
let counter = 0;
const history = () => ({
  kind: 'history',
  text: `step ${++counter}: ran the tests, 3 failing`,
  task_id: null,
  source: 'bench',
});

/** `writers` loops, each committing one event per commit to its own workflow, for `secs`; commits per second. */
async function concurrentRate(writers, secs) {
  const end = performance.now() + secs * 1000;
  let n = 0;
  const t0 = performance.now();
  await Promise.all(
    writers.map(async (write) => {
      while (performance.now() < end) {
        await write();
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/** Baton's service path: load the state, decide, commit one history event (its event, record and state row). */
async function batonWriters(store, dir, count) {
  const svc = service(store);
  const wfs = await Promise.all(
    Array.from({ length: count }, (_, i) => svc.create({ title: `w${i}`, tasks, worktree: dir })),
  );
  return wfs.map((w) => () => svc.record({ workflowId: w.id }, history()));
}

/**
 * The peer baseline: the `pg` driver alone writing the rows one such Baton commit writes (the workflow's state row
 * updated, one event, one record row: same schema, same sizes) in one prepared statement that commits on its own, at
 * synchronous_commit=on, one connection per writer. No service, no load, no fold, no validation.
 */
async function rawWriters(url, state, count, name) {
  const clients = [];
  const writers = [];
  for (let w = 0; w < count; w++) {
    const c = new pg.Client({ connectionString: url, options: '-c synchronous_commit=on' });
    c.on('error', () => undefined); // a dropped connection fails its next query, which the bench reports
    await c.connect();
    clients.push(c);
    const id = `wf-${name}-${w}`;
    await c.query(
      "INSERT INTO workflows (id, status, worktree, title, version, created_at, updated_at, state) VALUES ($1, 'in_progress', '/tmp', 'raw', 0, '', '', $2)",
      [id, state],
    );
    let seq = 0;
    writers.push(async () => {
      seq++;
      const at = new Date().toISOString();
      const entry = {
        id: `hist-${id}-${seq}`,
        timestamp: at,
        task_id: null,
        session_number: 1,
        text: `step ${seq}: ran the tests, 3 failing`,
        source: 'bench',
      };
      // One prepared statement, committing on its own: the fewest round trips and no planning (as Baton does).
      await c.query({
        name: 'raw-commit',
        text: `WITH w AS (UPDATE workflows SET version = $2, updated_at = $3, state = $4 WHERE id = $1 AND version = $5 RETURNING id),
          e AS (INSERT INTO events (workflow_id, seq, type, at, actor, session_number, task_id, v, data)
            SELECT $1, $2, 'history.recorded', $3, 'user', 1, NULL, 1, $6 FROM w),
          r AS (INSERT INTO records (workflow_id, kind, id, seq, task_id, session_number, created_at, data)
            SELECT $1, 'history', $7, $2, NULL, 1, $3, $8 FROM w)
        SELECT count(*) FROM w`,
        values: [id, seq, at, state, seq - 1, JSON.stringify({ entry }), entry.id, JSON.stringify(entry)],
      });
    });
  }
  return { writers, close: () => Promise.all(clients.map((c) => c.end())) };
}

/** A live follower as `baton serve` runs one: reads new events every 150 ms (which numbers them first). */
function follow(store) {
  let cursor = 0;
  let seen = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (;;) {
        const batch = await store.readEventsSince(cursor, 1000);
        seen += batch.length;
        cursor = batch.at(-1)?.position ?? cursor;
        if (batch.length < 1000) break;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

/**
 * Write scaling on a real PostgreSQL: Baton's single-commit rate beside raw `pg` writing the same rows, and 32
 * writers on 32 workflows (plain concurrent commits on a pool of 32, and through GroupCommitStore) beside one
 * writer, in short interleaved slices, with a follower numbering and reading the events throughout.
 */
export async function benchScaleWrites({ quick = false } = {}) {
  const rounds = quick ? 3 : 16;
  const slice = quick ? 0.3 : 0.4;
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-scale-'));
  const server = await benchPostgres();
  const closers = [];
  try {
    const url = await server.fresh();
    const pool32 = await PostgresStore.open(url, { durability: 'full', poolSize: 34 });
    const pool4 = await PostgresStore.open(url, { durability: 'full' });
    const reader = await PostgresStore.open(url, { durability: 'full', poolSize: 1 });
    closers.push(
      () => pool32.close(),
      () => pool4.close(),
      () => reader.close(),
    );
    const [one] = await batonWriters(pool4, dir, 1);
    const plain = await batonWriters(pool32, dir, 32);
    const grouped = await batonWriters(new GroupCommitStore(pool4), dir, 32);
    const sample = await pool4.loadState((await pool4.listWorkflows({ limit: 1 }))[0].id);
    const raw1 = await rawWriters(url, JSON.stringify(sample), 1, 'raw1');
    const raw32 = await rawWriters(url, JSON.stringify(sample), 32, 'raw32');
    closers.push(raw1.close, raw32.close);
    const tail = follow(reader);
    const runs = { baton: [], raw: [], plain: [], grouped: [], raw32: [] };
    const writersOf = { baton: [one], raw: raw1.writers, plain, grouped, raw32: raw32.writers };
    for (const w of Object.values(writersOf).flat()) await w(); // warm: statements prepared, pools filled
    const names = Object.keys(runs);
    for (let r = 0; r < rounds; r++)
      // each round in its own order, so no figure always follows the same one
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + r) % names.length];
        runs[name].push(await concurrentRate(writersOf[name], slice));
      }
    const followed = await tail.stop();
    // The disk's fsync time drifts a lot on a shared machine: rates are medians of the slices, and ratios medians
    // of the ratios within each round (slices next to each other in time).
    const sum = Object.fromEntries(names.map((n) => [n, median(runs[n])]));
    const ratio = (a, b) => median(runs[a].map((x, i) => x / runs[b][i]));
    const pct = (a, b) => `${fmt(ratio(a, b) * 100)}%`;
    return [
      {
        name: 'one writer, one event per commit (Baton service path, PostgreSQL, full)',
        value: `${fmt(sum.baton)} /s`,
        note: `${pct('baton', 'raw')} of raw pg below (target: at least 70%)`,
      },
      {
        name: 'raw pg, one connection, the same rows per commit (full)',
        value: `${fmt(sum.raw)} /s`,
        note: 'one statement per commit: UPDATE the state row, INSERT the event and the record',
      },
      {
        name: '32 writers on 32 workflows, plain concurrent commits (pool of 32)',
        value: `${fmt(sum.plain)} /s`,
        note: `${fmt(ratio('plain', 'baton'), 1)}x one writer (target: at least 8x); ${pct('plain', 'raw32')} of raw pg with 32 connections`,
      },
      {
        name: '32 writers on 32 workflows, GroupCommitStore (pool of 4)',
        value: `${fmt(sum.grouped)} /s`,
        note: `${fmt(ratio('grouped', 'baton'), 1)}x one writer`,
      },
      {
        name: 'raw pg, 32 connections, the same rows per commit (full)',
        value: `${fmt(sum.raw32)} /s`,
        note: `${fmt(ratio('raw32', 'raw'), 1)}x one raw connection: the server's own scaling here`,
      },
      {
        name: 'events numbered and read by a live follower meanwhile',
        value: fmt(followed),
        note: 'polling every 150 ms, as `baton serve` does',
      },
    ];
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
