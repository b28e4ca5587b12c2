import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonService, rebuild } from '../dist/service/index.js';
import { GroupCommitStore } from '../dist/storage/group-commit.js';
import { openStore } from '../dist/storage/open-store.js';
import { fsyncProbe } from './fsync.js';
import { rawSqliteBatches } from './raw-sqlite.js';
import { walBytesPerCommit } from './wal-bytes.js';
import { benchPostgres } from './postgres.js';
import { fmt, percentiles, rate } from './stats.js';

const noGit = {
  resolveWorktree: async (dir) => dir,
  gitStart: async () => null,
  owner: async () => null,
  gitMark: async () => null,
  captureGitState: async () => ({ state: null, note: 'bench: no git' }),
};
const history = (i) => ({
  kind: 'history',
  text: `step ${i}: ran the tests, 3 failing`,
  task_id: null,
  source: 'bench',
});
const tasks = [{ id: 'T1', title: 'task 1', deps: [] }];
const service = (store) =>
  new BatonService(store, noGit, { pauseTimeoutMs: 300_000, staleAfterMs: 7 * 86_400_000 });

/** Appends: one per commit, 100 per commit, and 32 concurrent appenders through group commit. */
async function appends(database, durability, dir, secs) {
  const store = await openStore({ database, durability });
  const svc = service(store);
  const wf = await svc.create({ title: 'bench', tasks, worktree: dir });
  const ref = { workflowId: wf.id };
  let i = 0;
  const one = async () => (await svc.record(ref, history(i++)), 1);
  await rate(one, 1); // steady state: a SQLite WAL checkpointed once and rewritten in place from then on
  const single = await rate(one, secs);
  const batched = await rate(async () => {
    await svc.recordBatch(
      ref,
      Array.from({ length: 100 }, () => history(i++)),
    );
    return 100;
  }, secs);
  const grouped = new GroupCommitStore(store);
  const gsvc = service(grouped);
  const wfs = await Promise.all(
    Array.from({ length: 32 }, () => gsvc.create({ title: 'g', tasks, worktree: dir })),
  );
  const end = performance.now() + secs * 1000;
  let n = 0;
  const t0 = performance.now();
  await Promise.all(
    wfs.map(async (w) => {
      while (performance.now() < end) {
        await gsvc.record({ workflowId: w.id }, history(n++));
      }
    }),
  );
  const group = n / ((performance.now() - t0) / 1000);
  await store.close();
  return { single, batched, group, perGroup: grouped.stats.commits / grouped.stats.groups };
}

/**
 * Batched appends of `perCommit` events per commit (SQLite, full) against the disk's batched-fsync limit for
 * commits of that size: the bytes one such commit writes to the WAL, rewritten and fdatasynced, times the events
 * it carries. Measured in steady state (the WAL already checkpointed once), interleaved with the probe.
 */
async function batchedVsLimit(dir, perCommit, rounds) {
  const open = async (file) => service(await openStore({ database: file, durability: 'full' }));
  const bytes = await walBytesPerCommit(open, dir, perCommit);
  const appendProbe = fsyncProbe(dir, bytes, 'append');
  const rewriteProbe = fsyncProbe(dir, bytes, 'rewrite');
  const svc = await open(join(mkdtempSync(join(dir, `batched-${perCommit}-`)), 'bench.db'));
  const wf = await svc.create({ title: 'bench', tasks, worktree: dir });
  let i = 0;
  const batch = async () => {
    await svc.recordBatch(
      { workflowId: wf.id },
      Array.from({ length: perCommit }, () => history(i++)),
    );
    return perCommit;
  };
  const raw = await rawSqliteBatches(join(mkdtempSync(join(dir, `raw-${perCommit}-`)), 'raw.db'), perCommit);
  for (let k = 0; k < 60_000 / perCommit; k++) {
    await batch();
    raw.commit();
  }
  let appends = 0;
  let rewrites = 0;
  let events = 0;
  let rawEvents = 0;
  for (let r = 0; r < rounds; r++) {
    appends += appendProbe.run(0.2).perSecond / rounds;
    rewrites += rewriteProbe.run(0.2).perSecond / rounds;
    events += (await rate(batch, 0.25)) / rounds;
    rawEvents += (await rate(async () => raw.commit(), 0.25)) / rounds;
  }
  appendProbe.close();
  rewriteProbe.close();
  raw.close();
  await svc.store.close();
  return {
    bytes,
    limit: rewrites * perCommit,
    appendLimit: appends * perCommit,
    events,
    rawEvents,
  };
}

/** Resume latency and rebuild rate on a workflow of `events` events. */
async function resumeAndRebuild(database, dir, events, samples) {
  const store = await openStore({ database, durability: 'normal' });
  const svc = service(store);
  const wf = await svc.create({ title: 'bench', tasks, worktree: dir });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'T1');
  for (let i = 0; i < events; i += 1000)
    await svc.recordBatch(
      ref,
      Array.from({ length: 1000 }, (_, k) => history(i + k)),
    );
  await svc.pause(ref, { force: true });
  const times = [];
  for (let k = 0; k < samples; k++) {
    // A store opened afresh each time (untimed): nothing of the workflow is parsed or cached beforehand.
    const cold = service(await openStore({ database, durability: 'normal' }));
    const t0 = performance.now();
    const ctx = await cold.queries.context(await cold.store.loadState(wf.id));
    times.push(performance.now() - t0);
    if (!ctx.markdown) throw new Error('no context');
    await cold.store.close();
  }
  const t0 = performance.now();
  const r = await rebuild(store, wf.id);
  const rebuildRate = r.events / ((performance.now() - t0) / 1000);
  await store.close();
  return { resume: percentiles(times), rebuildRate };
}

export async function benchBackends({ quick = false } = {}) {
  const secs = quick ? 0.6 : 2;
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-backends-'));
  const pg = await benchPostgres();
  const rows = [];
  try {
    const probe = fsyncProbe(dir, 512, 'rewrite');
    const fsync = probe.run(secs).perSecond;
    probe.close();
    rows.push({
      name: 'disk fdatasync (512 B rewriting a file written beforehand)',
      value: `${fmt(fsync)} /s`,
      note: 'one durable commit at a time',
    });
    const results = {};
    for (const backend of ['sqlite', 'postgres'])
      for (const durability of ['full', 'normal']) {
        const database =
          backend === 'sqlite'
            ? join(mkdtempSync(join(dir, `${durability}-`)), 'bench.db')
            : await pg.fresh();
        const r = await appends(database, durability, dir, secs);
        results[`${backend}/${durability}`] = r;
        const tag = `${backend}, ${durability}`;
        rows.push({
          name: `append, one event per commit (${tag})`,
          value: `${fmt(r.single)} /s`,
          note: `${fmt(r.single / fsync, 2)}x the fdatasync rate`,
        });
        rows.push({
          name: `batched append, 100 events per commit (${tag})`,
          value: `${fmt(r.batched)} /s`,
          note: '',
        });
        rows.push({
          name: `group commit, 32 concurrent appenders (${tag})`,
          value: `${fmt(r.group)} /s`,
          note: `${fmt(r.perGroup, 1)} commits per transaction`,
        });
      }
    for (const perCommit of [10, 100]) {
      const b = await batchedVsLimit(dir, perCommit, quick ? 3 : 8);
      const pct = (n, of) => `${fmt((n / of) * 100)}%`;
      rows.push({
        name: `disk batched-fsync limit, ${perCommit} events per commit`,
        value: `${fmt(b.limit)} events/s`,
        note: `${fmt(b.bytes)} B (one such commit's WAL pages) rewritten in place + fdatasync, times ${perCommit}; appended to a growing file instead: ${fmt(b.appendLimit)} events/s`,
      });
      rows.push({
        name: `batched append, ${perCommit} events per commit (sqlite, full)`,
        value: `${fmt(b.events)} events/s`,
        note: `${pct(b.events, b.limit)} of that limit (target: at least 50%), ${pct(b.events, b.appendLimit)} of the append-based one; ${pct(b.events, b.rawEvents)} of raw better-sqlite3`,
      });
      rows.push({
        name: `raw better-sqlite3 writing the same rows, ${perCommit} per commit (full)`,
        value: `${fmt(b.rawEvents)} events/s`,
        note: `${pct(b.rawEvents, b.limit)} of the limit, ${pct(b.rawEvents, b.appendLimit)} of the append-based one: SQLite's own ceiling here (bench/raw-sqlite.js)`,
      });
    }
    const size = quick ? 10_000 : 100_000;
    for (const backend of ['sqlite', 'postgres']) {
      const database =
        backend === 'sqlite' ? join(mkdtempSync(join(dir, 'resume-')), 'bench.db') : await pg.fresh();
      const r = await resumeAndRebuild(database, dir, size, quick ? 50 : 200);
      rows.push({
        name: `resume (load + context compile), ${fmt(size)} events (${backend})`,
        value: `p50 ${fmt(r.resume.p50, 2)} ms`,
        note: `p95 ${fmt(r.resume.p95, 2)} ms`,
      });
      rows.push({
        name: `rebuild from the event log (${backend})`,
        value: `${fmt(r.rebuildRate)} events/s`,
        note: `${fmt(size)} events`,
      });
    }
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
