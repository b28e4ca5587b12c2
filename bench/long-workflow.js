import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Draft, makeCheckpoint, markImported, recordError, takeSnapshot } from '../dist/core/index.js';
import { fsyncProbe } from './fsync.js';
import { fmt } from './stats.js';

/** Checkpoints carry no git capture here: the commit is what is measured, not `git status`. */
const git = { state: null, note: 'bench' };

/**
 * Grows a workflow to `n` checkpoints, each with a session, an imported transcript and an open error beside it
 * (what a long hook-driven run leaves), in commits of 500 straight into the store, then warms its WAL to the
 * steady state (3,000 one-event commits: checkpointed and rewritten in place).
 */
async function longWorkflow(svc, dir, n) {
  const wf = await svc.create({ title: `long ${n}`, tasks: [{ id: 'T1', title: 'work' }], worktree: dir });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'T1');
  let i = 0;
  for (let done = 0; done < n;) {
    const base = await svc.store.loadState(wf.id);
    const d = new Draft(base, { now: new Date().toISOString(), newId: (p) => `${p}-${++i}`, actor: 'bench' });
    for (const end = Math.min(n, done + 500); done < end; done++) {
      d.emit({
        type: 'session.started',
        session_number: d.state.session_count + 1,
        data: { origin: 'resume' },
      });
      makeCheckpoint(d, `step ${done}`, takeSnapshot(d, 'manual', null, git));
      markImported(d, {
        format: 'claude-code-transcript',
        transcript_session_id: `t-${done}`,
        path: `/transcripts/t-${done}.jsonl`,
        through_line: 10,
        through_byte: 1000,
        records: 0,
      });
      recordError(d, {
        task_id: null,
        error_type: 'build',
        error_message: `failure ${done}`,
        context: null,
        resolution: 'unresolved',
        resolution_notes: null,
      });
    }
    await svc.store.commit({
      workflowId: wf.id,
      expectedVersion: base.version,
      events: d.events,
      state: d.state,
      writes: d.writes,
    });
  }
  for (let k = 0; k < 3_000; k++) await svc.record(ref, history(k));
  return wf.id;
}

const history = (k) => ({
  kind: 'history',
  text: `turn ${k}: ran the tests`,
  task_id: null,
  source: 'bench',
});

/** `count` commits of `one`, timed; returns commits per second. */
async function timed(one, count) {
  const t0 = performance.now();
  for (let k = 0; k < count; k++) await one();
  return count / ((performance.now() - t0) / 1000);
}

/**
 * What one more commit costs on a workflow holding 100 and 10,000 checkpoints (and as many sessions, imports and
 * open errors): one history event, and one more checkpoint (snapshot + checkpoint, through the service's command
 * runner: load, decide, commit), each depth on its own SQLite file at synchronous=FULL, interleaved in short
 * slices with the disk's own fdatasync rate in the same directory.
 */
export async function benchLongWorkflow(dir, service, quick) {
  const depths = [100, 10_000];
  const probe = fsyncProbe(dir, 512, 'rewrite');
  const runs = [];
  for (const n of depths) {
    const svc = service(mkdtempSync(join(dir, `long-${n}-`)));
    const id = await longWorkflow(svc, dir, n);
    const bytes = JSON.stringify(await svc.store.loadState(id)).length;
    // What the state would hold with its lists whole (as before they were bounded): every such record's data.
    let whole = bytes;
    for (const kind of ['checkpoint', 'session', 'import', 'error'])
      for (const row of await svc.store.listRecords(id, kind)) whole += JSON.stringify(row.data).length;
    let k = 0;
    runs.push({
      n,
      svc,
      bytes,
      whole,
      history: () => svc.record({ workflowId: id }, history(k++)),
      checkpoint: () =>
        svc.runner.run(id, (d) => makeCheckpoint(d, `more ${k++}`, takeSnapshot(d, 'manual', null, git))),
    });
  }
  const rounds = quick ? 4 : 12;
  const per = 25;
  const sum = { disk: 0 };
  for (const r of runs) sum[r.n] = { history: 0, checkpoint: 0 };
  for (let round = 0; round < rounds; round++) {
    sum.disk += probe.run(0.25).perSecond / rounds;
    for (const r of runs) {
      sum[r.n].history += (await timed(r.history, per)) / rounds;
      sum[r.n].checkpoint += (await timed(r.checkpoint, per)) / rounds;
    }
  }
  probe.close();
  for (const r of runs) await r.svc.store.close();
  const [small, large] = runs;
  const rows = [];
  for (const kind of ['history', 'checkpoint']) {
    for (const r of runs)
      rows.push({
        name: `one more ${kind === 'history' ? 'history event' : 'checkpoint'} per commit, workflow of ${fmt(r.n)} checkpoints`,
        value: `${fmt(sum[r.n][kind])} /s`,
        note:
          r === large
            ? `${fmt((sum[large.n][kind] / sum[small.n][kind]) * 100)}% of the rate at ${fmt(small.n)} checkpoints; the disk's limit ${fmt(sum.disk)} /s`
            : `${fmt((sum[r.n][kind] / sum.disk) * 100)}% of the disk's limit (${fmt(sum.disk)} /s fdatasync, 512 B rewrite)`,
      });
  }
  rows.push({
    name: 'folded state stored, workflow of 100 / 10,000 checkpoints',
    value: `${fmt(small.bytes / 1024, 1)} / ${fmt(large.bytes / 1024, 1)} KiB`,
    note: `recent sessions, checkpoints, imports and open errors in the state, every one in the records; with the lists whole it would be ${fmt(small.whole / 1024, 1)} / ${fmt(large.whole / 1024, 1)} KiB, rewritten at every commit`,
  });
  return rows;
}
