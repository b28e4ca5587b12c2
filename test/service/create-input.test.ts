import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

describe('creating a workflow', () => {
  it('refuses a task with a key it does not know, as the CLI and the server do (the library)', async () => {
    const svc = makeService();
    const worktree = makeRepo();
    const tasks = [
      { id: 'T1', title: 'Schema' },
      { id: 'T2', title: 'API', depends: ['T1'] },
    ];
    await expect(svc.create({ title: 'Typo', tasks, worktree })).rejects.toThrow(
      'task 2 (T2): unknown key "depends" (a task has id, title, description, deps, lane)',
    );
    expect(await svc.queries.list({})).toEqual([]);
    await svc.store.close();
  });
});
