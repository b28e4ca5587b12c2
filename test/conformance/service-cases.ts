import { afterEach, describe, expect, it } from 'vitest';
import { foldEvents, recordKinds, type RecordRow } from '../../src/core/index.js';
import { cleanup, rebuild, type BatonService } from '../../src/service/index.js';
import type { Store } from '../../src/storage/store.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, TestClock } from '../helpers/service.js';
import type { StoreBackend } from './backend.js';
import { createWorkflow, loaded, rejection } from './fixtures.js';

async function tables(store: Store, id: string) {
  const records: RecordRow[] = [];
  for (const kind of recordKinds) records.push(...(await store.listRecords(id, kind)));
  return { state: await store.loadState(id), records };
}

const decision = (description: string) => ({
  kind: 'decision' as const,
  decision: {
    decision_type: 'library' as const,
    description,
    rationale: 'r',
    alternatives_considered: null,
    task_id: 'T1',
  },
});

/** The service's use cases over the backend: the same behaviour whatever the store. */
export function serviceCases(backend: StoreBackend) {
  describe(`service on ${backend.name}`, () => {
    const opened: Store[] = [];
    let clock: TestClock;
    const service = async (opts: { pauseTimeoutMs?: number } = {}): Promise<BatonService> => {
      const store = await backend.open(await backend.newLocation());
      opened.push(store);
      clock = new TestClock();
      return makeService(store, { now: clock.now, ...opts });
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('moves tasks through legal transitions and refuses illegal ones', async () => {
      const svc = await service();
      const wf = await createWorkflow(svc);
      const ref = { workflowId: wf.id };
      expect((await rejection(svc.startTask(ref, 'T2'))).code).toBe('invalid_transition');
      expect((await rejection(svc.startTask(ref, 'T9'))).code).toBe('not_found');
      await svc.startTask(ref, 'T1');
      expect((await loaded(svc.store, wf.id)).status).toBe('in_progress');
      expect((await rejection(svc.startTask(ref, 'T1'))).code).toBe('invalid_transition');
      await svc.completeTask(ref, 'T1');
      await svc.startTask(ref, 'T2');
      await svc.failTask(ref, 'T2', 'broke');
      await svc.skipTask(ref, 'T2', 'later');
      await svc.blockTask(ref, 'T3', 'waiting');
      await svc.unblockTask(ref, 'T3');
      const end = await svc.completeTask(ref, 'T3');
      expect(end.result.workflow_status).toBe('completed');
      expect((await rejection(svc.startTask(ref, 'T3'))).code).toBe('invalid_transition');
      expect((await rejection(svc.resume(ref))).code).toBe('invalid_transition');
    });

    it('pauses at the task boundary, snapshots and checkpoints there, and resumes into session 2', async () => {
      const svc = await service();
      const repo = makeRepo();
      const wf = await svc.create({
        title: 'boundary',
        tasks: [
          { id: 'T1', title: 'one', deps: [] },
          { id: 'T2', title: 'two', deps: [] },
        ],
        worktree: repo,
      });
      const ref = { workflowId: wf.id };
      await svc.startTask(ref, 'T1');
      await svc.record(ref, decision('Use argon2'));
      const asked = await svc.pause(ref, { reason: 'end of day' });
      expect(asked.result).toMatchObject({ outcome: 'requested', waiting_for: ['T1'] });
      expect((await rejection(svc.startTask(ref, 'T2'))).code).toBe('invalid_transition');
      const done = await svc.completeTask(ref, 'T1', 'ok');
      expect(done.result).toMatchObject({ paused: true, workflow_status: 'paused', checkpoint: 'cp-01-one' });
      const snap = await svc.queries.snapshot(wf.id, done.result.snapshot_id!);
      expect(snap).toMatchObject({ trigger: 'pause', pause_reason: 'end of day', next_task_id: 'T2' });
      expect((await svc.pause(ref)).result).toMatchObject({ outcome: 'already_paused' });
      const ctx = await svc.queries.context(await loaded(svc.store, wf.id));
      expect(ctx.markdown).toContain('Use argon2');
      clock.advance(60_000);
      const resumed = await svc.resume(ref);
      expect(resumed).toMatchObject({ session_number: 2, status: 'in_progress', next_task: { id: 'T2' } });
      expect(resumed.context).toContain('Use argon2');
      expect((await svc.queries.sessions()).find((s) => s.id === wf.id)?.sessions).toBe(2);
    });

    it('forces a pause, and forces it after the pause timeout', async () => {
      const svc = await service({ pauseTimeoutMs: 60_000 });
      const a = await createWorkflow(svc, 'A');
      await svc.startTask({ workflowId: a.id }, 'T1');
      const forced = await svc.pause({ workflowId: a.id }, { force: true, reason: 'now' });
      expect(forced.result).toMatchObject({ outcome: 'paused' });
      expect((forced.result as { warning: string }).warning).toMatch(
        /paused at once \(now\) while T1 was in progress/,
      );

      const b = await createWorkflow(svc, 'B');
      await svc.startTask({ workflowId: b.id }, 'T1');
      expect((await svc.pause({ workflowId: b.id })).result).toMatchObject({ outcome: 'requested' });
      clock.advance(61_000);
      const late = await svc.pause({ workflowId: b.id });
      expect((late.result as { warning: string }).warning).toMatch(/pause timeout of 60 s passed/);
      expect((await loaded(svc.store, b.id)).status).toBe('paused');
    });

    it('keeps records and their details as of a snapshot', async () => {
      const svc = await service();
      const wf = await createWorkflow(svc);
      const ref = { workflowId: wf.id };
      await svc.startTask(ref, 'T1');
      await svc.record(ref, decision('before'));
      const err = await svc.record(ref, {
        kind: 'error',
        error: {
          error_type: 'TypeError',
          error_message: 'x is undefined',
          context: null,
          resolution: 'unresolved',
          resolution_notes: null,
          task_id: 'T1',
        },
      });
      await svc.resolveError(ref, (err.result as { id: string }).id, 'fixed', 'guarded');
      const fb = await svc.record(ref, {
        kind: 'feedback',
        feedback: {
          reviewer_persona: 'rev',
          severity: 'low',
          comments: ['c'],
          approved: false,
          addressed: false,
        },
      });
      await svc.addressFeedback(ref, (fb.result as { review_id: string }).review_id);
      const done = await svc.completeTask(ref, 'T1');
      clock.advance(1000);
      await svc.record(ref, decision('after'));
      const snap = await svc.queries.findSnapshot(done.result.snapshot_id!);
      const decisions = (await svc.queries.details(snap, 'decisions')) as { description: string }[];
      expect(decisions.map((d) => d.description)).toEqual(['before']);
      const errors = (await svc.queries.details(snap, 'errors')) as { resolution: string }[];
      expect(errors.map((e) => e.resolution)).toEqual(['fixed']);
      const s = await loaded(svc.store, wf.id);
      expect(s.counts).toMatchObject({ decisions: 2, errors: 1, feedback: 1 });
      expect(s.open_errors).toEqual([]);
      expect((await svc.queries.snapshots(wf.id)).length).toBe(1);
    });

    it('checkpoints, interrupts and recovers from a checkpoint, the live state, or fresh', async () => {
      const svc = await service();
      const wf = await createWorkflow(svc);
      const ref = { workflowId: wf.id };
      await svc.completeTask(ref, 'T1');
      await svc.checkpoint(ref, 'architecture');
      await svc.startTask(ref, 'T2');
      await svc.interrupt(ref, 'crash');
      const s = await loaded(svc.store, wf.id);
      expect(s.status).toBe('interrupted');
      expect(s.checkpoints.map((c) => c.name)).toEqual(['cp-01-write-schema', 'cp-02-architecture']);
      const plan = await svc.queries.recoveryOptions(s);
      expect(JSON.stringify(plan)).toContain('cp-02-architecture');
      const r = await svc.recover(ref, 'checkpoint', 'cp-01-write-schema');
      expect(r.session_number).toBe(2);
      expect((await loaded(svc.store, wf.id)).tasks.map((t) => t.status)).toEqual([
        'done',
        'pending',
        'pending',
      ]);
      await svc.interrupt(ref, 'again');
      await svc.recover(ref, 'fresh', null);
      expect((await loaded(svc.store, wf.id)).tasks.every((t) => t.status === 'pending')).toBe(true);
      await svc.interrupt(ref, 'third');
      expect((await svc.recover(ref, 'live_state', null)).session_number).toBe(4);
    });

    it('rebuild gives exactly the stored tables, and repairs damaged ones', async () => {
      const svc = await service();
      const wf = await createWorkflow(svc);
      const ref = { workflowId: wf.id };
      await svc.startTask(ref, 'T1');
      await svc.recordBatch(ref, [
        decision('a'),
        decision('b'),
        { kind: 'history', text: 'h', task_id: null, source: null },
      ]);
      await svc.pause(ref, { force: true });
      await svc.resume(ref);
      await svc.completeTask(ref, 'T1');
      const before = await tables(svc.store, wf.id);
      expect(await rebuild(svc.store)).toMatchObject({
        workflows: 1,
        events: (await svc.store.readEvents(wf.id)).length,
      });
      expect(await tables(svc.store, wf.id)).toEqual(before);
      const folded = foldEvents(await svc.store.readEvents(wf.id));
      await svc.store.replaceProjection(wf.id, folded.state, []);
      expect((await tables(svc.store, wf.id)).records).toEqual([]);
      await rebuild(svc.store, wf.id);
      expect(await tables(svc.store, wf.id)).toEqual(before);
    });

    it('cleans up finished workflows older than the cut-off, with a dry run', async () => {
      const svc = await service();
      const old = await createWorkflow(svc, 'old');
      await svc.abandon({ workflowId: old.id }, 'no longer needed');
      const active = await createWorkflow(svc, 'active');
      clock.advance(40 * 86_400_000);
      const now = clock.now();
      const dry = await cleanup(svc.store, 30 * 86_400_000, now, true);
      expect(dry.removed.map((w) => w.id)).toEqual([old.id]);
      expect(await svc.store.loadState(old.id)).not.toBeNull();
      await cleanup(svc.store, 30 * 86_400_000, now, false);
      expect(await svc.store.listWorkflowIds()).toEqual([active.id]);
    });
  });
}
