import { describe, expect, it } from 'vitest';
import { nextStep, type RunReport } from '../../src/service/runtime/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

const cmd = 'baton run -w wf-x --agent codex';
const report = (usage_limit: RunReport['usage_limit'] = null) => ({ usage_limit });

/** Real workflows in a real store, left as a run leaves them; what the run's last line says to go on. */
describe('how a run that ended short of finishing says to go on', () => {
  const svc = makeService();
  const worktree = makeRepo();
  const tasks = [
    { id: 'T1', title: 'Schema' },
    { id: 'T2', title: 'API', deps: ['T1'] },
  ];
  const fresh = async (list = tasks) => (await svc.create({ title: 'W', tasks: list, worktree })).id;

  it('a finished workflow: nothing to go on with', async () => {
    const id = await fresh([{ id: 'T1', title: 'Schema' }]);
    await svc.completeTask({ workflowId: id }, 'T1');
    expect(nextStep(await svc.resolve({ workflowId: id }), report(), cmd)).toBeNull();
    const gone = await fresh();
    await svc.abandon({ workflowId: gone });
    expect(nextStep(await svc.resolve({ workflowId: gone }), report(), cmd)).toBeNull();
  });

  it('interrupted (Ctrl-C), paused, or a task failed (a killed agent): the command, and the task it takes up', async () => {
    const id = await fresh();
    await svc.startTask({ workflowId: id }, 'T1');
    await svc.interrupt({ workflowId: id }, 'baton run was stopped (SIGINT)');
    expect(nextStep(await svc.resolve({ workflowId: id }), report(), cmd)).toBe(
      'go on with `baton run -w wf-x --agent codex` (next: T1 Schema, from where it stopped)',
    );
    await svc.resume({ workflowId: id });
    await svc.completeTask({ workflowId: id }, 'T1');
    await svc.pause({ workflowId: id }, { reason: '1 task done in this run', trigger: 'task_complete' });
    expect(nextStep(await svc.resolve({ workflowId: id }), report(), cmd)).toBe(
      'go on with `baton run -w wf-x --agent codex` (next: T2 API)',
    );
    await svc.resume({ workflowId: id });
    await svc.startTask({ workflowId: id }, 'T2');
    await svc.failTask({ workflowId: id }, 'T2', 'the agent (pid 9) was killed by SIGKILL');
    expect(nextStep(await svc.resolve({ workflowId: id }), report(), cmd)).toBe(
      'go on with `baton run -w wf-x --agent codex` (next: T2 API, again)',
    );
  });

  it('no task can run: a blocked one is named with the command that frees it; no task at all is said', async () => {
    const id = await fresh();
    await svc.blockTask({ workflowId: id }, 'T1', 'waiting for the schema review');
    expect(nextStep(await svc.resolve({ workflowId: id }), report(), cmd)).toBe(
      'no task can run: T1 is blocked (waiting for the schema review); `baton task unblock T1 -w ' +
        id +
        '` once it can go on, then `baton run -w wf-x --agent codex`',
    );
    const empty = await fresh([]);
    expect(nextStep(await svc.resolve({ workflowId: empty }), report(), cmd)).toBe(
      `the workflow has no tasks: add them with \`baton task add "<title>" -w ${empty}\`, then \`baton run -w wf-x --agent codex\``,
    );
  });

  it('a usage limit not waited for: when it resets, and the same command then', async () => {
    const id = await fresh();
    await svc.startTask({ workflowId: id }, 'T1');
    await svc.pause({ workflowId: id }, { reason: 'usage limit', force: true });
    const state = await svc.resolve({ workflowId: id });
    const limit = (resets_at: string | null, reset_words: string | null) =>
      report({ resets_at, reset_words, auto_resumed: false, waits: 0 });
    // the run ends an hour before the reset
    const before = Date.parse('2026-11-29T14:00:00.000Z');
    expect(
      nextStep(state, limit('2026-11-29T15:00:00.000Z', '2026-11-29 15:00 UTC'), cmd, false, before),
    ).toBe(
      'usage limit (resets at 2026-11-29 15:00 UTC): go on then with `baton run -w wf-x --agent codex`, or add --auto-resume to wait for it',
    );
    expect(nextStep(state, limit(null, '5pm (Mars/Olympus)'), cmd)).toBe(
      'usage limit (resets at 5pm (Mars/Olympus)): go on then with `baton run -w wf-x --agent codex`',
    );
    expect(nextStep(state, limit(null, null), cmd)).toBe(
      'usage limit (the agent gave no reset time): go on later with `baton run -w wf-x --agent codex`',
    );
    // a run that had --auto-resume is never told to add it
    const waiting = 'baton run -w wf-x --agent codex --auto-resume';
    expect(
      nextStep(state, limit('2026-11-29T15:00:00.000Z', '2026-11-29 15:00 UTC'), waiting, true, before),
    ).toBe(
      'usage limit (resets at 2026-11-29 15:00 UTC): go on then with `baton run -w wf-x --agent codex --auto-resume`',
    );
    // its reset passed (a run stopped while it waited out a limit that outlasted it): no "then" to wait for
    const after = Date.parse('2026-11-29T15:01:00.000Z');
    expect(
      nextStep(state, limit('2026-11-29T15:00:00.000Z', '2026-11-29 15:00 UTC'), waiting, true, after),
    ).toBe(
      'usage limit (its reset at 2026-11-29 15:00 UTC has passed): go on with `baton run -w wf-x --agent codex --auto-resume`',
    );
    expect(
      nextStep(state, limit('2026-11-29T15:00:00.000Z', '2026-11-29 15:00 UTC'), cmd, false, after),
    ).toBe(
      'usage limit (its reset at 2026-11-29 15:00 UTC has passed): go on with `baton run -w wf-x --agent codex`, or add --auto-resume to wait out a limit that lasts',
    );
    // one it waited for twelve times with nothing done between outlasts what its notice said
    const persisted = report({ resets_at: null, reset_words: null, auto_resumed: false, waits: 12 });
    expect(nextStep(state, persisted, waiting, true)).toBe(
      "the usage limit persists after 12 waits with nothing done between: check the agent's plan and its usage, then go on with `baton run -w wf-x --agent codex --auto-resume`",
    );
  });
});
