import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workSpanOf, type WorkflowState } from '../../src/core/index.js';
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

describe("a workflow's git start", () => {
  it("keeps the files already changed as the user's, unless the workflow is an import's, made after the work", async () => {
    const svc = makeService();
    const worktree = makeRepo();
    writeFileSync(join(worktree, 'wip.ts'), 'export const wip = 1;\n');
    const made = await svc.create({ title: 'By hand', tasks: [], worktree });
    expect(Object.keys(made.git_start?.dirty ?? {})).toEqual(['wip.ts']);
    const imported = await svc.create({ title: 'An import', tasks: [], worktree, title_from_request: true });
    expect(imported.git_start?.dirty).toBeUndefined();
    // the git state the briefing shows: the file is not the first workflow's change, it is the import's session's
    const changed = async (w: WorkflowState) =>
      (await svc.git.captureGitState(w.worktree, workSpanOf(w))).state?.files_modified;
    expect(await changed(made)).toEqual([]);
    expect(await changed(imported)).toEqual(['wip.ts']);
    await svc.store.close();
  });
});
