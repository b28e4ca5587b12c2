import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * `baton status` of a workflow without a task says why, rather than "0/0 done, 0 in progress": a Codex turn under way
 * has shown Baton no plan yet (its `update_plan` is read with the rollout at the turn's end), an agent may make no task
 * list at all, and a workflow a person made takes tasks from `baton task add`.
 */
describe('baton status of a workflow with no task', () => {
  it("says a Codex turn's plan is read when the turn ends, then counts the plan", async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const codex = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000c1');
    codex.start();
    await codex.hook('SessionStart', { source: 'startup' });
    codex.turnStarts();
    await codex.ask('Add subtract to calc.js');
    codex.plan('1', [
      ['Add subtract to calc.js', 'in_progress'],
      ['Test subtract', 'pending'],
    ]);
    const during = await baton(['status']);
    expect(during.code).toBe(0);
    expect(during.stdout).toMatch(
      /^session: 1 {3}tasks: none yet \(Codex's plan is read when its turn ends\)$/m,
    );

    expect((await codex.stop('Working on subtract.')).code).toBe(0);
    expect((await baton(['status'])).stdout).toMatch(/^session: 1 {3}tasks: 0\/2 done, 1 in progress$/m);
  });

  it('says an agent made no task list once its turn is over, and a made workflow how to add one', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo });
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'Fix the typo in the README' });
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Fixed the typo.' });
    expect((await baton(['status'])).stdout).toMatch(
      /^session: 1 {3}tasks: none \(the agent made no task list; `baton task add <title>` adds one\)$/m,
    );

    const made = await baton(['create', 'Write the docs']);
    expect(made.code).toBe(0);
    const id = /wf-\S+/.exec(made.stdout)?.[0] ?? '';
    expect((await baton(['status', '-w', id])).stdout).toMatch(
      /^session: 1 {3}tasks: none \(`baton task add <title>` adds one\)$/m,
    );
  });
});
