import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../helpers/service.js';

const tasks = [
  { id: 'T1', title: 'one' },
  { id: 'T2', title: 'two', deps: ['T1'] },
];

describe('pause at the task boundary', () => {
  it('forces a requested pause once the timeout passes, with a warning', async () => {
    const clock = new TestClock();
    const svc = makeService(sqliteStore(), { now: clock.now, pauseTimeoutMs: 5 * 60_000 });
    const wf = await svc.create({ title: 'timeout', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    expect((await svc.pause(ref, { reason: 'meeting' })).result).toMatchObject({
      outcome: 'requested',
      waiting_for: ['T1'],
    });
    clock.advance(4 * 60_000);
    expect((await svc.pause(ref, { reason: 'meeting' })).result).toMatchObject({
      outcome: 'already_requested',
      reason: 'meeting',
      ignored_reason: null,
    });
    expect(await svc.settlePendingPauses()).toEqual([]);
    clock.advance(2 * 60_000);
    expect(await svc.settlePendingPauses()).toEqual([wf.id]);
    const s = await svc.resolve(ref);
    expect(s).toMatchObject({ status: 'paused', pause_reason: 'meeting', pause_requested: false });
    expect(s.warnings.join()).toMatch(/pause timeout of 300 s passed while T1 was in progress/);
    const snaps = await svc.queries.snapshots(wf.id);
    expect(snaps.at(-1)).toMatchObject({ trigger: 'pause', pause_reason: 'meeting' });
    // once resumed, the pause's warning no longer stands on the workflow (its pause snapshot keeps it)
    await svc.resume(ref);
    expect((await svc.resolve(ref)).warnings.join()).not.toMatch(/pause timeout/);
    const pauseSnapshot = await svc.queries.snapshot(wf.id, snaps.at(-1)?.id ?? '');
    expect(pauseSnapshot.warnings.join()).toMatch(/pause timeout of 300 s passed/);
  });

  it("a person's resume withdraws a pause that waits; one past its timeout has taken effect, and is resumed", async () => {
    const clock = new TestClock();
    const svc = makeService(sqliteStore(), { now: clock.now, pauseTimeoutMs: 60_000 });
    const wf = await svc.create({ title: 'withdraw', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    await svc.pause(ref, { reason: 'lunch' });
    expect(await svc.resumeOrWithdraw(ref)).toEqual({
      outcome: 'pause_withdrawn',
      workflow_id: wf.id,
      status: 'in_progress',
      pause_request: { reason: 'lunch', requested_at: expect.any(String) },
    });
    expect(await svc.resolve(ref)).toMatchObject({ status: 'in_progress', pause_requested: false });
    await svc.pause(ref, { reason: 'stop' });
    clock.advance(61_000);
    expect(await svc.resumeOrWithdraw(ref)).toMatchObject({ outcome: 'resumed', session_number: 2 });
  });

  it('forces an overdue pause before any other command runs', async () => {
    const clock = new TestClock();
    const svc = makeService(sqliteStore(), { now: clock.now, pauseTimeoutMs: 60_000 });
    const wf = await svc.create({ title: 'overdue', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    await svc.pause(ref, { reason: 'stop' });
    clock.advance(61_000);
    await expect(svc.completeTask(ref, 'T1')).rejects.toThrow(/workflow is paused/);
    expect((await svc.resolve(ref)).status).toBe('paused');
  });

  it('pauses at once with --force and is idempotent', async () => {
    const svc = makeService();
    const wf = await svc.create({ title: 'force', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    const forced = await svc.pause(ref, { reason: 'now', force: true });
    expect(forced.result).toMatchObject({
      outcome: 'paused',
      warning: 'paused at once (now) while T1 was in progress',
    });
    expect((await svc.pause(ref, { reason: 'again' })).result).toMatchObject({ outcome: 'already_paused' });
    const resumed = await svc.resume(ref);
    expect(resumed).toMatchObject({ session_number: 2, next_task: { id: 'T1' } });
    expect(resumed.context).toContain('### Plan Status: 0/2 tasks done, current T1');
  });
});

describe('live state auto-save', () => {
  afterEach(() => vi.useRealTimers());

  it('coalesces a burst of commits into one save, and saves running workflows every 30 s', async () => {
    vi.useFakeTimers();
    const store = sqliteStore();
    const svc = makeService(store);
    const wf = await svc.create({ title: 'live', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    for (let i = 0; i < 5; i++)
      await svc.record(ref, { kind: 'history', text: `step ${i}`, task_id: 'T1', source: null });
    expect(await store.loadLiveState(wf.id)).toBeNull();
    await vi.advanceTimersByTimeAsync(1_100);
    const first = await store.loadLiveState(wf.id);
    expect(first).toMatchObject({ trigger: 'action', version: (await svc.resolve(ref)).version });
    expect(first?.data).toMatchObject({
      status: 'in_progress',
      current_tasks: ['T1'],
      last_action: 'step 4',
    });

    svc.live.startAutoSave(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await store.loadLiveState(wf.id)).toMatchObject({ trigger: 'auto' });
    await svc.live.stop();
  });

  it('a save still waiting when the service closes is dropped, never tried on the closed store', async () => {
    vi.useFakeTimers();
    const store = sqliteStore();
    const svc = makeService(store);
    const saves = vi.spyOn(store, 'saveLiveState');
    const wf = await svc.create({ title: 'live', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    await svc.record(ref, { kind: 'history', text: 'the last step', task_id: 'T1', source: null });
    await svc.close();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(saves).not.toHaveBeenCalled();
  });
});

describe('a pause that loses a race', () => {
  it('to another process recording its work is decided again: the pause stands', async () => {
    const path = join(tempDir('baton-db-'), 'baton.db');
    const mine = sqliteStore(path);
    const svc = makeService(mine);
    const worker = makeService(sqliteStore(path)); // another process on the same database
    const wf = await svc.create({ title: 'race', tasks, worktree: tempDir() });
    const ref = { workflowId: wf.id };
    await svc.startTask(ref, 'T1');
    // the worker records a line of its work between this pause's load and its commit
    const commit = mine.commit.bind(mine);
    let raced = false;
    mine.commit = async (input) => {
      if (!raced) {
        raced = true;
        await worker.record(ref, { kind: 'history', text: 'ran the tests', task_id: 'T1', source: 'worker' });
      }
      return commit(input);
    };
    expect((await svc.pause(ref, { reason: 'lunch' })).result).toMatchObject({ outcome: 'requested' });
    expect(raced).toBe(true);
    const state = await worker.resolve(ref);
    expect(state).toMatchObject({ pause_requested: true });
  });
});
