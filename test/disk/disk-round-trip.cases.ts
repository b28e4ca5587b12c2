import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { recordKinds, type RecordRow } from '../../src/core/index.js';
import { DiskMirror, exportRun, importRunDir, rebuildFromDisk, runsDirFor } from '../../src/disk/index.js';
import type { BatonService } from '../../src/service/index.js';
import type { Store } from '../../src/storage/store.js';
import { tempDir } from '../helpers/git-repo.js';
import { makeService, TestClock } from '../helpers/service.js';

/** Every table a workflow has, read through the Store interface (events without the store-wide position). */
export async function dumpTables(store: Store) {
  const ids = [...(await store.listWorkflowIds())].sort();
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const records: Record<string, RecordRow[]> = {};
    for (const kind of recordKinds) records[kind] = await store.listRecords(id, kind);
    out[id] = { state: await store.loadState(id), events: await store.readEvents(id), records };
  }
  return out;
}

const usage = {
  tokens_used: 1200,
  tokens_remaining_estimate: null,
  context_utilization: 0.3,
  llm_calls: 2,
  tool_calls: 5,
  cost_usd: 0.02,
  session_duration_seconds: 60,
  context_window: 200_000,
};

/** A scenario touching every kind of event, by three actors, over two workflows in one worktree. */
export async function runScenario(store: Store, worktree: string, clock: TestClock) {
  const services: BatonService[] = [];
  const mirror = new DiskMirror(store, { now: clock.now });
  const as = (actor: string) => {
    const svc = makeService(store, { now: clock.now, actor });
    mirror.attach(svc.runner);
    services.push(svc);
    return svc;
  };
  const orchestrator = as('orchestrator');
  const agent = as('session-1');
  const user = as('user');
  const tasks = [
    { id: 'B1', title: 'install tools', lane: 0 },
    { id: 'D1', title: 'schema', lane: 1 },
    { id: 'D2', title: 'api', lane: 1, deps: ['D1'] },
  ];
  const wf = (
    await orchestrator.create({ title: 'Add login', tasks, worktree, plan: '# plan\n- B1\n- D1\n' })
  ).id;
  const ref = { workflowId: wf };
  clock.advance(1000);
  await agent.startTask(ref, 'B1');
  await agent.record(ref, {
    kind: 'decision',
    decision: {
      decision_type: 'library',
      description: 'argon2',
      rationale: 'memory-hard',
      alternatives_considered: null,
      task_id: 'B1',
    },
  });
  const err = await agent.record(ref, {
    kind: 'error',
    error: {
      error_type: 'TypeError',
      error_message: 'x is undefined',
      context: null,
      resolution: 'unresolved',
      resolution_notes: null,
      task_id: 'B1',
    },
  });
  await agent.record(ref, { kind: 'history', text: 'ran the installer', task_id: 'B1', source: null });
  await agent.record(ref, { kind: 'usage', usage });
  await agent.record(ref, {
    kind: 'test',
    test: {
      phase: 'red',
      failing_tests: ['a > b'],
      expected_failures: [],
      last_test_command: 'npm test',
      last_test_output_summary: null,
    },
  });
  await user.record(ref, {
    kind: 'feedback',
    feedback: {
      reviewer_persona: 'security',
      severity: 'high',
      comments: ['hash it'],
      approved: false,
      addressed: false,
    },
  });
  clock.advance(60_000);
  await agent.resolveError(ref, (err.result as { id: string }).id, 'fixed', 'null check');
  await agent.completeTask(ref, 'B1', 'installed');
  await user.checkpoint(ref, 'bootstrap');
  await agent.startTask(ref, 'D1');
  await user.pause(ref, { reason: 'night' });
  clock.advance(60_000);
  await agent.completeTask(ref, 'D1', null);
  clock.advance(3_600_000);
  await user.resume(ref);
  await agent.startTask(ref, 'D2');
  await orchestrator.interrupt(ref, 'crash');
  await user.recover(ref, 'checkpoint', 'bootstrap');

  const other = (await user.create({ title: 'Second', tasks: [{ id: 'A', title: 'one' }], worktree })).id;
  await agent.blockTask({ workflowId: other }, 'A', 'waiting for a key');
  await mirror.flush();
  return { wf, other, services };
}

/**
 * The round trip, for any Store: run a scenario with the mirror on, throw the database away, rebuild it
 * from the run folders, and compare every table; then move a workflow to another database with export/import.
 */
export async function checkDiskRoundTrip(
  makeStore: () => Promise<Store> | Store,
  /** Where export/import moves the workflow to (another backend, to move between SQLite and PostgreSQL). */
  makeTarget: () => Promise<Store> | Store = makeStore,
) {
  const worktree = tempDir('baton-disk-wt-');
  const clock = new TestClock();
  const original = await makeStore();
  const { wf } = await runScenario(original, worktree, clock);
  const before = await dumpTables(original);
  const exportDir = `${tempDir('baton-export-')}/run`;
  const exported = await exportRun(original, wf, exportDir);
  expect(exported.events).toBe((before[wf] as { events: unknown[] }).events.length);
  await original.close();
  if (original.dialect === 'sqlite') rmSync(original.location, { force: true });

  const rebuilt = await makeStore();
  const r = await rebuildFromDisk(rebuilt, runsDirFor(worktree));
  expect(r.runs.map((x) => x.outcome)).toEqual(['imported', 'imported']);
  expect(r.skipped).toEqual([]);
  expect(r.runs.flatMap((x) => [...x.problems, ...x.missing])).toEqual([]);
  expect(await dumpTables(rebuilt)).toEqual(before);
  // Byte for byte, key order included: a rebuilt decision record's JSON is the original's.
  expect(JSON.stringify(await dumpTables(rebuilt))).toBe(JSON.stringify(before));
  const again = await rebuildFromDisk(rebuilt, runsDirFor(worktree));
  expect(again.runs.map((x) => x.outcome)).toEqual(['up_to_date', 'up_to_date']);
  await rebuilt.close();

  const target = await makeTarget();
  const imported = await importRunDir(target, exportDir);
  expect(imported).toMatchObject({ workflow_id: wf, outcome: 'imported', problems: [], missing: [] });
  expect(JSON.stringify((await dumpTables(target))[wf])).toBe(JSON.stringify(before[wf]));
  await target.close();
}
