import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/git-repo.js';
import { TaskLogFiles } from './task-logs.js';

describe('the task logs of the run folder', () => {
  it("finds a task's latest run in one session: the highest n, the task id as the names spell it", async () => {
    const logs = new TaskLogFiles();
    const w = { id: 'wf-1', worktree: tempDir('baton-logs-') };
    for (const [task, session] of [
      ['T/1', 1],
      ['T/1', 1],
      ['T/1', 2],
      ['T2', 1],
    ] as const) {
      const sink = logs.open(w, task, session);
      sink.write('stdout', `${task} in session ${session}\n`);
      await sink.close();
    }
    const latest = await logs.latest(w, 'T/1', 1);
    expect(latest?.name).toBe('T_1-s1-2.log');
    expect((await logs.read(w, latest!.name, 0, 100)).text).toBe('T/1 in session 1\n');
    expect((await logs.latest(w, 'T/1', 2))?.name).toBe('T_1-s2-1.log');
    expect(await logs.latest(w, 'T3', 1)).toBeNull();
    expect(await logs.latest({ id: 'wf-2', worktree: w.worktree }, 'T/1', 1)).toBeNull();
  });
});
