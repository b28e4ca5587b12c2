import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from '../dist/git/git.js';
import { BatonService, rebuild } from '../dist/service/index.js';
import { SqliteStore } from '../dist/storage/sqlite/sqlite-store.js';
import { fsyncProbe } from './fsync.js';
import { fmt, percentiles, rate } from './stats.js';

const history = (i) => ({
  kind: 'history',
  text: `step ${i}: ran the tests, 3 failing`,
  task_id: null,
  source: 'bench',
});
const decision = (i) => ({
  kind: 'decision',
  decision: {
    decision_type: 'approach',
    description: `decision ${i}`,
    rationale: 'because',
    alternatives_considered: null,
    task_id: null,
  },
});
const error = (i) => ({
  kind: 'error',
  error: {
    error_type: 'TypeError',
    error_message: `error ${i}`,
    context: null,
    resolution: i % 50 ? 'fixed' : 'unresolved',
    resolution_notes: null,
    task_id: null,
  },
});
const mixed = (i) => (i % 20 === 0 ? decision(i) : i % 33 === 0 ? error(i) : history(i));

function service(dir, durability = 'full') {
  const store = new SqliteStore(join(dir, 'bench.db'), { durability });
  return new BatonService(store, git, { pauseTimeoutMs: 300_000, staleAfterMs: 7 * 86_400_000 });
}

const tasks = Array.from({ length: 20 }, (_, i) => ({
  id: `T${i + 1}`,
  title: `task ${i + 1}`,
  deps: i ? [`T${i}`] : [],
}));

/** A workflow with `events` events in its history, paused (so resuming compiles its context). */
async function workflowWith(svc, dir, events) {
  const wf = await svc.create({ title: `bench ${events}`, tasks, worktree: dir });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'T1');
  let n = wf.version + 2;
  let i = 0;
  while (n < events - 10) {
    const size = Math.min(1000, events - 10 - n);
    await svc.recordBatch(
      ref,
      Array.from({ length: size }, () => mixed(i++)),
    );
    n += size;
  }
  await svc.pause(ref, { reason: 'bench', force: true });
  return wf.id;
}

/** How many bytes one single-event commit adds to the WAL (the pages it rewrites), measured on a fresh file. */
async function walBytesPerCommit(dir) {
  const sub = mkdtempSync(join(dir, 'wal-'));
  const svc = service(sub);
  const wf = await svc.create({ title: 'wal size', tasks: tasks.slice(0, 1), worktree: sub });
  await svc.record({ workflowId: wf.id }, history(0));
  const before = statSync(join(sub, 'bench.db-wal')).size;
  for (let i = 1; i <= 200; i++) await svc.record({ workflowId: wf.id }, history(i));
  const bytes = Math.round((statSync(join(sub, 'bench.db-wal')).size - before) / 200);
  await svc.store.close();
  return bytes;
}

export async function benchCore({ quick = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  const rows = [];
  try {
    const rounds = quick ? 4 : 12;
    const commitBytes = await walBytesPerCommit(dir);
    const probe = fsyncProbe(dir);
    const sameSize = fsyncProbe(dir, commitBytes, 'fsync-probe-commit.bin');
    const svc = service(dir);
    const wf = await svc.create({ title: 'append bench', tasks: tasks.slice(0, 1), worktree: dir });
    const ref = { workflowId: wf.id };
    let i = 0;
    // Interleave short slices of the baseline and of the workload, so that a noisy neighbour hits both alike.
    let fsync = 0;
    let fsyncSized = 0;
    let single = 0;
    let batched = 0;
    for (let r = 0; r < rounds; r++) {
      fsync += probe.run(0.25).perSecond / rounds;
      fsyncSized += sameSize.run(0.25).perSecond / rounds;
      single += (await rate(async () => (await svc.record(ref, history(i++)), 1), 0.25)) / rounds;
      batched +=
        (await rate(
          async () => (
            await svc.recordBatch(
              ref,
              Array.from({ length: 100 }, () => history(i++)),
            ),
            100
          ),
          0.25,
        )) / rounds;
    }
    probe.close();
    sameSize.close();
    await svc.store.close();
    rows.push({
      name: 'disk fdatasync (512 B append + fdatasync)',
      value: `${fmt(fsync)} /s`,
      note: 'the physical limit of one durable commit at a time',
    });
    rows.push({
      name: `disk fdatasync (${fmt(commitBytes)} B append + fdatasync: the bytes one commit adds to the WAL)`,
      value: `${fmt(fsyncSized)} /s`,
      note: 'the same limit for the size a commit really writes',
    });
    rows.push({
      name: 'durable appends, one event per commit (full)',
      value: `${fmt(single)} /s`,
      note: `${fmt((single / fsync) * 100)}% of the 512 B fsync rate, ${fmt((single / fsyncSized) * 100)}% of the commit-sized one`,
    });
    rows.push({
      name: 'durable appends, 100 events per commit (full)',
      value: `${fmt(batched)} /s`,
      note: `${fmt(batched / fsync, 1)}x the single-commit fsync rate`,
    });

    for (const size of quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]) {
      const sub = mkdtempSync(join(dir, `resume-${size}-`));
      const s = service(sub, 'normal');
      const id = await workflowWith(s, sub, size);
      const samples = [];
      for (let k = 0; k < (quick ? 50 : 300); k++) {
        const t0 = performance.now();
        const state = await s.store.loadState(id);
        const ctx = await s.queries.context(state);
        if (!ctx.markdown) throw new Error('no context');
        samples.push(performance.now() - t0);
      }
      const p = percentiles(samples);
      rows.push({
        name: `resume (snapshot load + context compile), ${fmt(size)} events`,
        value: `p50 ${fmt(p.p50, 2)} ms`,
        note: `p95 ${fmt(p.p95, 2)} ms`,
      });
      if (size === (quick ? 10_000 : 100_000)) {
        const t0 = performance.now();
        const r = await rebuild(s.store, id);
        const secs = (performance.now() - t0) / 1000;
        rows.push({
          name: `full rebuild from the event log, ${fmt(r.events)} events`,
          value: `${fmt(r.events / secs)} events/s`,
          note: `${fmt(secs, 2)} s`,
        });
      }
      await s.store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
