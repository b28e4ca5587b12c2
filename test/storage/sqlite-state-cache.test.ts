import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { createWorkflow, historyBatch, loaded } from '../conformance/fixtures.js';
import { tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

/** The SQLite store keeps parsed states between loads; two stores on one file stand for two processes. */
describe('SQLite state cache', () => {
  const opened: SqliteStore[] = [];
  const pair = () => {
    const file = join(tempDir('baton-cache-'), 'baton.db');
    const stores = [new SqliteStore(file), new SqliteStore(file)] as const;
    opened.push(...stores);
    return stores;
  };
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  it('hands back the same parsed state while the row is unchanged, frozen under test', async () => {
    const [a] = pair();
    const wf = await createWorkflow(makeService(a));
    const first = await loaded(a, wf.id);
    expect(await a.loadState(wf.id)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.tasks[0])).toBe(true);
  });

  it("sees another process's commit", async () => {
    const [a, b] = pair();
    const wf = await createWorkflow(makeService(a));
    const before = await loaded(a, wf.id);
    await b.commit(historyBatch(await loaded(b, wf.id), 2));
    const after = await loaded(a, wf.id);
    expect(after.version).toBe(before.version + 2);
    expect(after).toEqual(await loaded(b, wf.id));
  });

  it("sees another process's rebuild, which rewrites the row at the same version", async () => {
    const [a, b] = pair();
    const wf = await createWorkflow(makeService(a));
    const cached = await loaded(a, wf.id);
    await b.replaceProjection(wf.id, { ...cached, title: 'rebuilt' }, []);
    const seen = await loaded(a, wf.id);
    expect(seen.version).toBe(cached.version);
    expect(seen.title).toBe('rebuilt');
  });

  it('forgets a deleted workflow, in this process and in another', async () => {
    const [a, b] = pair();
    const wf = await createWorkflow(makeService(a));
    await loaded(a, wf.id);
    await loaded(b, wf.id);
    await b.deleteWorkflow(wf.id);
    expect(await a.loadState(wf.id)).toBeNull();
    expect(await b.loadState(wf.id)).toBeNull();
  });
});
