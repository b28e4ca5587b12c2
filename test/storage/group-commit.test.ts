import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/core/index.js';
import { GroupCommitStore } from '../../src/storage/group-commit.js';
import { postgresBackend, sqliteBackend } from '../conformance/index.js';
import { createWorkflow, historyBatch, loaded, rejection } from '../conformance/fixtures.js';
import { makeService } from '../helpers/service.js';

describe.each([sqliteBackend, postgresBackend])('group commit on $name', (backend) => {
  it('coalesces concurrent appenders into few transactions, each caller getting its own outcome', async () => {
    const store = new GroupCommitStore(await backend.open(await backend.newLocation()));
    try {
      const svc = makeService(store);
      const wfs = await Promise.all(Array.from({ length: 8 }, (_, i) => createWorkflow(svc, `W${i}`)));
      const before = store.stats.commits;
      await Promise.all(
        wfs.flatMap((wf) =>
          Array.from({ length: 5 }, (_, k) =>
            svc.record(
              { workflowId: wf.id },
              { kind: 'history', text: `h${k}`, task_id: null, source: null },
            ),
          ),
        ),
      );
      expect(store.stats.commits - before).toBeGreaterThanOrEqual(40);
      expect(store.stats.groups).toBeLessThan(store.stats.commits);
      for (const wf of wfs) {
        const events = await store.readEvents(wf.id);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(events.filter((e) => e.type === 'history.recorded')).toHaveLength(5);
        expect(await loaded(store, wf.id)).toEqual(foldEvents(events).state);
      }

      const base = await loaded(store, wfs[0]!.id);
      const other = await loaded(store, wfs[1]!.id);
      const [a, b, c] = await Promise.allSettled([
        store.commit(historyBatch(base, 1, 'first')),
        store.commit(historyBatch(base, 1, 'stale')),
        store.commit(historyBatch(other, 1, 'other')),
      ]);
      expect(a.status).toBe('fulfilled');
      expect(b.status === 'rejected' && (b.reason as { code: string }).code).toBe('conflict');
      expect(c.status).toBe('fulfilled');
      expect((await loaded(store, wfs[0]!.id)).version).toBe(base.version + 1);
      expect((await rejection(store.commit(historyBatch(base, 1, 'late')))).code).toBe('conflict');
    } finally {
      await store.close();
    }
  });
});
