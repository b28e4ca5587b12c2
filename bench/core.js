import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as git from '../dist/git/git.js';
import { BatonService, rebuild } from '../dist/service/index.js';
import { SqliteStore } from '../dist/storage/sqlite/sqlite-store.js';
import { fsyncProbe } from './fsync.js';
import { benchLongWorkflow } from './long-workflow.js';
import { rawSqliteBatches } from './raw-sqlite.js';
import { walBytesPerCommit } from './wal-bytes.js';
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

/** A workflow of one task on a file of its own; `append()` commits one history record, or `batch` of them. */
async function appender(dir, batch) {
  const svc = service(mkdtempSync(join(dir, 'appends-')));
  const wf = await svc.create({ title: 'append bench', tasks: tasks.slice(0, 1), worktree: dir });
  const ref = { workflowId: wf.id };
  let i = 0;
  return {
    append: async () => {
      if (batch === 1) await svc.record(ref, history(i++));
      else
        await svc.recordBatch(
          ref,
          Array.from({ length: batch }, () => history(i++)),
        );
      return batch;
    },
    close: () => svc.store.close(),
  };
}

/** Single-event commits, the same rows written by better-sqlite3 alone, and 100-event commits, beside the disk's limits. */
async function appends(dir, quick) {
  const rounds = quick ? 4 : 12;
  const rewrite = fsyncProbe(dir, 512, 'rewrite');
  const append = fsyncProbe(dir, 512, 'append');
  const single = await appender(dir, 1);
  const batched = await appender(dir, 100);
  const raw = await rawSqliteBatches(join(mkdtempSync(join(dir, 'raw-')), 'raw.db'), 1);
  // Steady state: each WAL has been checkpointed and is being rewritten in place, as in a long-running server.
  for (let k = 0; k < 3_000; k++) {
    await single.append();
    raw.commit();
  }
  // Interleave short slices of the baselines and of the workloads, so that a noisy neighbour hits all alike.
  const sum = { rewrite: 0, append: 0, single: 0, raw: 0, batched: 0 };
  for (let r = 0; r < rounds; r++) {
    sum.rewrite += rewrite.run(0.25).perSecond / rounds;
    sum.append += append.run(0.25).perSecond / rounds;
    sum.single += (await rate(single.append, 0.25)) / rounds;
    sum.raw += (await rate(async () => raw.commit(), 0.25)) / rounds;
    sum.batched += (await rate(batched.append, 0.25)) / rounds;
  }
  rewrite.close();
  append.close();
  raw.close();
  await single.close();
  await batched.close();
  return sum;
}

export async function benchCore({ quick = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  const rows = [];
  try {
    const commitBytes = await walBytesPerCommit(async (file) => service(dirname(file)), dir, 1);
    const a = await appends(dir, quick);
    const pct = (n, of) => `${fmt((n / of) * 100)}%`;
    rows.push({
      name: 'disk fdatasync, 512 B rewriting a file written beforehand',
      value: `${fmt(a.rewrite)} /s`,
      note: "the disk's limit: its fastest durable write, as a WAL reused after a checkpoint is written",
    });
    rows.push({
      name: 'disk fdatasync, 512 B appended to a growing file',
      value: `${fmt(a.append)} /s`,
      note: "earlier runs' baseline; each fdatasync also commits the file's new size, so SQLite's steady-state commits can beat it",
    });
    rows.push({
      name: 'durable appends, one event per commit (full)',
      value: `${fmt(a.single)} /s`,
      note: `${pct(a.single, a.rewrite)} of the disk's limit (target: at least 70%), ${pct(a.single, a.append)} of the append rate; a commit writes ${fmt(commitBytes)} B of WAL`,
    });
    rows.push({
      name: 'raw better-sqlite3 writing the same rows, one event per commit (full)',
      value: `${fmt(a.raw)} /s`,
      note: `${pct(a.raw, a.rewrite)} of the disk's limit, ${pct(a.raw, a.append)} of the append rate: SQLite's own ceiling here (bench/raw-sqlite.js); Baton reaches ${pct(a.single, a.raw)} of it`,
    });
    rows.push({
      name: 'durable appends, 100 events per commit (full)',
      value: `${fmt(a.batched)} /s`,
      note: `${fmt(a.batched / a.single, 1)}x one event per commit`,
    });
    rows.push(...(await benchLongWorkflow(dir, (sub) => service(sub), quick)));

    for (const size of quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]) {
      const sub = mkdtempSync(join(dir, `resume-${size}-`));
      const s = service(sub, 'normal');
      const id = await workflowWith(s, sub, size);
      const samples = [];
      for (let k = 0; k < (quick ? 50 : 300); k++) {
        // A store opened afresh each time (untimed): nothing of the workflow is parsed or cached beforehand.
        const cold = service(sub, 'normal');
        const t0 = performance.now();
        const state = await cold.store.loadState(id);
        const ctx = await cold.queries.context(state);
        samples.push(performance.now() - t0);
        if (!ctx.markdown) throw new Error('no context');
        await cold.store.close();
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
