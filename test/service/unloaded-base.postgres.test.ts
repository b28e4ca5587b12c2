import { afterEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import { createWorkflow, loaded } from '../conformance/fixtures.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { makeService } from '../helpers/service.js';

const stores: PostgresStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
const open = async (url: string) => {
  const s = await PostgresStore.open(url);
  stores.push(s);
  return s;
};
const note = (text: string) => ({ kind: 'history' as const, text, task_id: null, source: 'test' });

describe('record appends on PostgreSQL decided on the state this process last committed', () => {
  it('skip the load while nothing else wrote, and are decided again when another process or a rebuild did', async () => {
    const url = await freshPostgresUrl();
    const mine = await open(url);
    const svc = makeService(mine);
    const wf = await createWorkflow(svc);
    const ref = { workflowId: wf.id };
    let loads = 0;
    const load = mine.loadState.bind(mine);
    mine.loadState = (id) => (loads++, load(id));

    await svc.record(ref, note('one'));
    await svc.record(ref, note('two'));
    expect(loads).toBe(0);

    const other = makeService(await open(url)); // another process appends meanwhile
    await other.record(ref, note('theirs'));
    await svc.record(ref, note('three'));
    expect(loads).toBe(1);

    const state = await loaded(mine, wf.id); // rewritten at the same version into another state (its records dropped)
    await mine.replaceProjection(wf.id, { ...state, title: 'rebuilt' }, []);
    loads = 0;
    await svc.record(ref, note('four'));
    expect(loads).toBe(1);

    const final = await loaded(mine, wf.id);
    expect(final.title).toBe('rebuilt');
    const texts = (await mine.readEvents(wf.id))
      .filter((e) => e.type === 'history.recorded')
      .map((e) => (e.data as { entry: { text: string } }).entry.text);
    expect(texts).toEqual(['one', 'two', 'theirs', 'three', 'four']);
    expect((await mine.readEvents(wf.id)).length).toBe(final.version);
  });
});
