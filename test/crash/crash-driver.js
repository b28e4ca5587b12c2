// The child process of the crash harness (test/crash/harness.ts): drives the service under load until it is
// killed. It prints one JSON line before each commit ("begin") and one after the commit returned ("ack"), with
// a synchronous write, so that every line the parent reads describes something that really happened first.
import { writeSync } from 'node:fs';
import { BatonService } from '../../dist/service/index.js';
import { openStore } from '../../dist/storage/open-store.js';

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const say = (obj) => writeSync(1, `${JSON.stringify(obj)}\n`);

/** No git here: the harness is about the store, and spawning git would only slow every command. */
const noGit = {
  resolveWorktree: async (dir) => dir,
  gitStart: async () => null,
  owner: async () => null,
  gitMark: async () => null,
  captureGitState: async () => ({ state: null, note: 'crash test: no git' }),
};

const describe = (b) => ({ wf: b.workflowId, from: b.expectedVersion, to: b.state.version });

/** The real store, announcing each commit before it starts and acknowledging it after it returned. */
function announcing(store) {
  const wrapped = Object.create(store);
  wrapped.commit = async (batch) => wrapped.commitMany([batch]);
  wrapped.commitMany = async (batches) => {
    say({ t: 'begin', b: batches.map(describe) });
    await store.commitMany(batches);
    say({
      t: 'ack',
      b: batches.map((b) => ({ ...describe(b), records: b.writes.map((w) => `${w.kind}/${w.id}`) })),
    });
  };
  return wrapped;
}

const tasks = Array.from({ length: 24 }, (_, i) => ({ id: `T${i + 1}`, title: `task ${i + 1}`, deps: [] }));
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const history = (i) => ({
  kind: 'history',
  text: `step ${i} ${'x'.repeat(i % 200)}`,
  task_id: null,
  source: 'crash',
});
const decision = (i) => ({
  kind: 'decision',
  decision: {
    decision_type: 'approach',
    description: `d${i}`,
    rationale: 'r',
    alternatives_considered: null,
    task_id: null,
  },
});

const store = await openStore({ database: arg('database'), durability: arg('durability') ?? 'full' });
const svc = new BatonService(announcing(store), noGit, {
  pauseTimeoutMs: 300_000,
  staleAfterMs: 7 * 86_400_000,
});
say({ t: 'ready' });

// `--checkpoint-every N` (SQLite): a WAL checkpoint after every N commands, as SQLite's own autocheckpoint does
// every 10,000 pages, only sooner: the power-loss harness uses it so the WAL is synced (and, at `normal`, so some
// commits survive a cut and others are torn).
const checkpointEvery = Number(arg('checkpoint-every') ?? 0);
let wf = arg('workflow');
let i = 0;
for (;;) {
  if (checkpointEvery && i && i % checkpointEvery === 0) store.db.pragma('wal_checkpoint(PASSIVE)');
  if (!wf) {
    wf = (await svc.create({ title: 'crash', tasks, worktree: arg('worktree') ?? process.cwd() })).id;
    say({ t: 'wf', wf });
  }
  const ref = { workflowId: wf };
  const s = await store.loadState(wf);
  if (s.status === 'completed') {
    wf = undefined;
    continue;
  }
  if (s.status === 'paused' || s.status === 'interrupted') {
    await svc.resume(ref);
    continue;
  }
  try {
    const running = s.tasks.filter((t) => t.status === 'in_progress');
    const pending = s.tasks.filter((t) => t.status === 'pending');
    const r = Math.random();
    i++;
    if (r < 0.35) await svc.record(ref, history(i));
    else if (r < 0.5)
      await svc.recordBatch(ref, [history(i), decision(i), history(i + 1), decision(i + 1), history(i + 2)]);
    else if (r < 0.65 && pending.length && !s.pause_requested) await svc.startTask(ref, pick(pending).id);
    else if (r < 0.82 && (running.length || pending.length))
      await svc.completeTask(ref, pick(running.length ? running : pending).id, 'ok');
    else if (r < 0.9 && s.status === 'in_progress') await svc.checkpoint(ref, `c${i}`);
    else if (s.status === 'in_progress') await svc.pause(ref, { force: true, reason: 'crash test' });
    else await svc.record(ref, history(i));
  } catch (e) {
    // A command the state does not allow is refused without writing anything; anything else is a real failure.
    if (e?.code !== 'invalid_transition') throw e;
    say({ t: 'refused', message: e.message });
  }
}
