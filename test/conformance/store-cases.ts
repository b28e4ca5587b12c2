import { afterEach, describe, expect, it } from 'vitest';
import { BatonError, foldEvents, moveWorktree, recordKinds } from '../../src/core/index.js';
import type { Store } from '../../src/storage/store.js';
import { makeService, TestClock } from '../helpers/service.js';
import type { StoreBackend } from './backend.js';
import { createWorkflow, historyBatch, loaded, rejection } from './fixtures.js';

/** Every behaviour of the Store interface itself. */
export function storeCases(backend: StoreBackend) {
  describe(`Store on ${backend.name}`, () => {
    const opened: Store[] = [];
    const open = async (location?: string) => {
      const store = await backend.open(location ?? (await backend.newLocation()));
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('commits a new workflow: state, gap-free events, records, ids', async () => {
      const store = await open();
      const wf = await createWorkflow(makeService(store));
      expect(store.dialect).toBe(backend.name);
      expect(await loaded(store, wf.id)).toEqual(wf);
      const events = await store.readEvents(wf.id);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events[0]?.type).toBe('workflow.created');
      expect(await store.listWorkflowIds()).toEqual([wf.id]);
      expect(await store.loadState('wf-missing')).toBeNull();
    });

    it('refuses a stale version with a conflict naming both versions, and writes nothing', async () => {
      const store = await open();
      const wf = await createWorkflow(makeService(store));
      const base = await loaded(store, wf.id);
      await store.commit(historyBatch(base, 2, 'first'));
      const err = await rejection(store.commit(historyBatch(base, 1, 'second')));
      expect(BatonError.isInstance(err)).toBe(true);
      expect(err.code).toBe('conflict');
      expect(err.details).toMatchObject({
        expected_version: base.version,
        current_version: base.version + 2,
      });
      expect(err.message).toMatch(/expected version/);
      const events = await store.readEvents(wf.id);
      expect(events.length).toBe(base.version + 2);
      expect(
        (await store.listRecords(wf.id, 'history')).map((r) => (r.data as { text: string }).text),
      ).toEqual(['first 0', 'first 1']);
    });

    it('refuses to create a workflow twice', async () => {
      const store = await open();
      const wf = await createWorkflow(makeService(store));
      const events = await store.readEvents(wf.id);
      const err = await rejection(
        store.commit({
          workflowId: wf.id,
          expectedVersion: 0,
          events: events.slice(0, 1),
          state: wf,
          writes: [],
        }),
      );
      expect(err.code).toBe('conflict');
      expect((await store.readEvents(wf.id)).length).toBe(events.length);
    });

    it('commitMany is one transaction: all batches, or none when one conflicts', async () => {
      const store = await open();
      const svc = makeService(store);
      const a = await createWorkflow(svc, 'A');
      const b = await createWorkflow(svc, 'B');
      const stale = historyBatch(await loaded(store, b.id), 1, 'stale');
      await store.commit(historyBatch(await loaded(store, b.id), 1, 'moved'));
      const err = await rejection(store.commitMany([historyBatch(a, 3, 'lost'), stale]));
      expect(err.code).toBe('conflict');
      expect((await store.readEvents(a.id)).length).toBe(a.version);
      expect(await store.listRecords(a.id, 'history')).toEqual([]);

      const sa = historyBatch(await loaded(store, a.id), 2, 'a');
      const sb = historyBatch(await loaded(store, b.id), 2, 'b');
      const before = (await store.readEventsSince(0, 10_000)).at(-1)?.position ?? 0;
      await store.commitMany([sa, sb]);
      const since = await store.readEventsSince(before, 100);
      expect(since.map((e) => `${e.workflow_id === a.id ? 'a' : 'b'}${e.seq}`)).toEqual([
        `a${a.version + 1}`,
        `a${a.version + 2}`,
        `b${b.version + 2}`,
        `b${b.version + 3}`,
      ]);
      await store.commitMany([]);
    });

    it('a commit decided on an unloaded base is written only while the row is still exactly that state', async () => {
      const store = await open();
      const wf = await createWorkflow(makeService(store));
      const base = await loaded(store, wf.id);
      await store.commit({ ...historyBatch(base, 1, 'kept'), unloadedBase: base });
      const next = await loaded(store, wf.id);
      expect(next.version).toBe(base.version + 1);
      // Rebuilt at the same version into another state: a commit on the remembered one must not overwrite it.
      await store.replaceProjection(wf.id, { ...next, title: 'rebuilt' }, []);
      const err = await rejection(store.commit({ ...historyBatch(next, 1, 'stale'), unloadedBase: next }));
      expect(err.code).toBe('conflict');
      expect((await loaded(store, wf.id)).title).toBe('rebuilt');
      expect((await store.readEvents(wf.id)).length).toBe(next.version);
      const fresh = await loaded(store, wf.id);
      await store.commit({ ...historyBatch(fresh, 1, 'fresh'), unloadedBase: fresh });
      expect((await loaded(store, wf.id)).version).toBe(next.version + 1);
    });

    it('reads events by seq and by store-wide position, with limits and a workflow filter', async () => {
      const store = await open();
      const svc = makeService(store);
      const a = await createWorkflow(svc, 'A');
      const b = await createWorkflow(svc, 'B');
      await store.commit(historyBatch(a, 5));
      expect((await store.readEvents(a.id, a.version)).map((e) => e.seq)).toEqual(
        [2, 3, 4, 5, 6].map((n) => n + a.version - 1),
      );
      expect((await store.readEvents(a.id, 0, 2)).map((e) => e.seq)).toEqual([1, 2]);
      const all = await store.readEventsSince(0, 1000);
      const positions = all.map((e) => e.position);
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
      expect(new Set(positions).size).toBe(positions.length);
      expect(all.length).toBe(a.version + 5 + b.version);
      const onlyB = await store.readEventsSince(0, 1000, b.id);
      expect(onlyB.every((e) => e.workflow_id === b.id)).toBe(true);
      expect(onlyB.length).toBe(b.version);
      const page = await store.readEventsSince(all[2]!.position, 3);
      expect(page.map((e) => e.position)).toEqual(positions.slice(3, 6));
    });

    it('keeps records: get, find a snapshot by id, list by creation time, newest first, limited', async () => {
      const store = await open();
      const clock = new TestClock();
      const svc = makeService(store, { now: clock.now });
      const wf = await createWorkflow(svc);
      const ref = { workflowId: wf.id };
      for (let i = 0; i < 4; i++) {
        clock.advance(1000);
        await svc.record(ref, { kind: 'history', text: `h${i}`, task_id: null, source: null });
      }
      const done = await svc.completeTask(ref, 'T1', 'schema written');
      const list = await store.listRecords(wf.id, 'history');
      expect(list.map((r) => (r.data as { text: string }).text)).toEqual(['h0', 'h1', 'h2', 'h3']);
      const newest = await store.listRecords(wf.id, 'history', { newestFirst: true, limit: 2 });
      expect(newest.map((r) => (r.data as { text: string }).text)).toEqual(['h3', 'h2']);
      const through = await store.listRecords(wf.id, 'history', { createdThrough: list[1]!.created_at });
      expect(through.length).toBe(2);
      const first = list[0]!;
      expect(await store.getRecord(wf.id, 'history', first.id)).toEqual(first);
      expect(await store.getRecord(wf.id, 'history', 'nope')).toBeNull();
      const snapId = done.result.snapshot_id!;
      const snap = await store.findSnapshot(snapId);
      expect(snap?.workflow_id).toBe(wf.id);
      expect(await store.findSnapshot('snap-nope')).toBeNull();
    });

    it('lists workflows by status, worktree, age and limit, most recently updated first', async () => {
      const store = await open();
      const clock = new TestClock();
      const svc = makeService(store, { now: clock.now });
      const a = await createWorkflow(svc, 'A');
      clock.advance(60_000);
      const b = await createWorkflow(svc, 'B');
      clock.advance(60_000);
      await svc.startTask({ workflowId: a.id }, 'T1');
      expect((await store.listWorkflows()).map((w) => w.title)).toEqual(['A', 'B']);
      expect((await store.listWorkflows({ status: ['pending'] })).map((w) => w.title)).toEqual(['B']);
      expect((await store.listWorkflows({ status: ['pending', 'in_progress'] })).length).toBe(2);
      expect((await store.listWorkflows({ worktree: b.worktree })).map((w) => w.id)).toEqual([b.id]);
      expect(
        (await store.listWorkflows({ updatedBefore: new Date(clock.time).toISOString() })).map((w) => w.id),
      ).toEqual([b.id]);
      expect((await store.listWorkflows({ limit: 1 })).map((w) => w.title)).toEqual(['A']);
    });

    it('lists a workflow moved to another worktree under that one only', async () => {
      const store = await open();
      const svc = makeService(store);
      const wf = await createWorkflow(svc, 'A');
      await svc.startTask({ workflowId: wf.id }, 'T1');
      const to = `${wf.worktree}-moved`;
      await svc.runner.run(wf.id, (d) => moveWorktree(d, to, 'its worktree is gone'));
      expect(await store.listWorkflows({ worktree: wf.worktree })).toEqual([]);
      const there = await store.listWorkflows({ worktree: to, status: ['in_progress'] });
      expect(there.map((w) => [w.id, w.worktree])).toEqual([[wf.id, to]]);
    });

    it('saves and overwrites the live state', async () => {
      const store = await open();
      const wf = await createWorkflow(makeService(store));
      const live = {
        workflow_id: wf.id,
        saved_at: '2026-01-01T00:00:00.000Z',
        trigger: 'auto' as const,
        version: 1,
        data: { a: [1, 'x'] },
      };
      await store.saveLiveState(live);
      await store.saveLiveState({ ...live, trigger: 'checkpoint', version: 2 });
      expect(await store.loadLiveState(wf.id)).toEqual({ ...live, trigger: 'checkpoint', version: 2 });
      expect(await store.loadLiveState('wf-none')).toBeNull();
    });

    it('stores text exactly: unicode, emoji, NUL, quotes, long strings, key order', async () => {
      const store = await open();
      const svc = makeService(store);
      const wf = await createWorkflow(svc, 'Ünïcødé 🚀 "quoted" \\ back\u0000slash');
      const text = `zeta 😀 \u0000 \u2028 'single' "double" ${'x'.repeat(100_000)}`;
      await svc.record({ workflowId: wf.id }, { kind: 'history', text, task_id: null, source: '日本語' });
      const s = await loaded(store, wf.id);
      expect(s.title).toBe('Ünïcødé 🚀 "quoted" \\ back\u0000slash');
      expect(Object.keys(s)).toEqual(Object.keys(wf));
      const [row] = await store.listRecords(wf.id, 'history');
      expect(row?.data).toMatchObject({ text, source: '日本語' });
    });

    it('survives a close and a reopen; reopening (migrating) again and concurrently is harmless', async () => {
      const location = await backend.newLocation();
      const store = await backend.open(location);
      const wf = await createWorkflow(makeService(store));
      await store.close();
      const again = await Promise.all([1, 2, 3].map(() => open(location)));
      for (const s of again) expect(await loaded(s, wf.id)).toEqual(wf);
    });

    it('deletes a workflow with its events, records and live state', async () => {
      const store = await open();
      const svc = makeService(store);
      const keep = await createWorkflow(svc, 'keep');
      const gone = await createWorkflow(svc, 'gone');
      await svc.completeTask({ workflowId: gone.id }, 'T1');
      await store.deleteWorkflow(gone.id);
      expect(await store.loadState(gone.id)).toBeNull();
      expect(await store.readEvents(gone.id)).toEqual([]);
      for (const kind of recordKinds) expect(await store.listRecords(gone.id, kind)).toEqual([]);
      expect(await store.loadLiveState(gone.id)).toBeNull();
      expect(await store.listWorkflowIds()).toEqual([keep.id]);
    });

    it('never hands out a position twice, even after the newest events are deleted (live cursors stay valid)', async () => {
      const location = await backend.newLocation();
      let store = await open(location);
      const keep = await createWorkflow(makeService(store), 'keep');
      const gone = await createWorkflow(makeService(store), 'gone');
      const top = (await store.readEventsSince(0, 10_000)).at(-1)!.position;
      await store.deleteWorkflow(gone.id);
      await store.close();
      store = await open(location);
      await store.commit(historyBatch(await loaded(store, keep.id), 2));
      const after = await store.readEventsSince(top, 100);
      expect(after.map((e) => e.workflow_id)).toEqual([keep.id, keep.id]);
      expect(after[0]!.position).toBeGreaterThan(top);
      expect(after[1]!.position).toBe(after[0]!.position + 1);
    });

    it('replaces a projection with the fold of the log, and refuses a fold that is behind the log', async () => {
      const store = await open();
      const svc = makeService(store);
      const wf = await createWorkflow(svc);
      await svc.completeTask({ workflowId: wf.id }, 'T1');
      const events = await store.readEvents(wf.id);
      const { state, writes } = foldEvents(events);
      await store.replaceProjection(wf.id, state, writes);
      expect(await loaded(store, wf.id)).toEqual(state);
      const behind = foldEvents(events.slice(0, -1));
      const err = await rejection(store.replaceProjection(wf.id, behind.state, behind.writes));
      expect(err.code).toBe('conflict');
      expect(await loaded(store, wf.id)).toEqual(state);
    });
  });
}
