import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonService, rebuild } from '../dist/service/index.js';
import { GroupCommitStore } from '../dist/storage/group-commit.js';
import { openStore } from '../dist/storage/open-store.js';
import { fsyncProbe } from './fsync.js';
import { benchPostgres } from './postgres.js';
import { fmt, percentiles, rate } from './stats.js';

const noGit = {
  resolveWorktree: async (dir) => dir,
  gitStart: async () => null,
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
const sizeOf = (path) =>
  ['', '-wal'].reduce((n, s) => n + (statSync(path + s, { throwIfNoEntry: false })?.size ?? 0), 0);

/** Appends: one per commit, 100 per commit, and 32 concurrent appenders through group commit. */
async function appends(database, durability, dir, secs) {
  const store = await openStore({ database, durability });
  const svc = service(store);
  const wf = await svc.create({ title: 'bench', tasks, worktree: dir });
  const ref = { workflowId: wf.id };
  let i = 0;
  const single = await rate(async () => (await svc.record(ref, history(i++)), 1), secs);
  const commitsBefore = i;
  const sizeBefore = database.endsWith('.db') ? sizeOf(database) : 0;
  let groups = 0;
  const batched = await rate(async () => {
    groups++;
    await svc.recordBatch(
      ref,
      Array.from({ length: 100 }, () => history(i++)),
    );
    return 100;
  }, secs);
  const bytesPerGroup = database.endsWith('.db') ? (sizeOf(database) - sizeBefore) / groups : null;
  void commitsBefore;
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
  return { single, batched, group, bytesPerGroup, perGroup: grouped.stats.commits / grouped.stats.groups };
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
    const t0 = performance.now();
    const ctx = await svc.queries.context(await store.loadState(wf.id));
    if (!ctx.markdown) throw new Error('no context');
    times.push(performance.now() - t0);
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
    const probe = fsyncProbe(dir);
    const fsync = probe.run(secs).perSecond;
    probe.close();
    rows.push({
      name: 'disk fdatasync (512 B append + fdatasync)',
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
    const full = results['sqlite/full'];
    if (full.bytesPerGroup > 0) {
      const limitProbe = fsyncProbe(dir, Math.round(full.bytesPerGroup));
      const perSec = limitProbe.run(secs).perSecond;
      limitProbe.close();
      const limit = perSec * 100;
      rows.push({
        name: 'disk batched-fsync limit (bytes of one 100-event commit + fdatasync)',
        value: `${fmt(limit)} events/s`,
        note: `${fmt(full.bytesPerGroup / 1024, 1)} KiB per fdatasync, ${fmt(perSec)} /s`,
      });
      rows.push({
        name: 'batched append (sqlite, full) vs that limit',
        value: `${fmt((full.batched / limit) * 100)}%`,
        note: 'target: at least 50%',
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
