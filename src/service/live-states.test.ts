import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../test/helpers/git-repo.js';
import { makeService } from '../../test/helpers/service.js';
import { LiveStates } from './live-states.js';

describe('LiveStates', () => {
  it('says a background save that failed where a person looks, and does not throw', async () => {
    const lines: string[] = [];
    const service = makeService();
    const w = await service.create({ title: 'live', tasks: [], cwd: makeRepo() });
    const state = (await service.store.listWorkflows({})).find((s) => s.id === w.id)!;
    // the database closed under a save that was queued: the save fails
    await service.store.close();
    const live = new LiveStates(service.store, {
      ...service.options,
      watch: { ...service.options.watch!, notice: (l) => lines.push(l) },
    });
    live.debounce(state, 0);
    for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(lines).toHaveLength(1);
    // the same failure again is not said again
    live.debounce(state, 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^could not save the live state of ${w.id}: .*\\b(?:not open|closed)\\b.* \\(tried again at the next save\\)$`,
        'i',
      ),
    );
  });
});
