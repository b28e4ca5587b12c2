import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { agentHooks, hookWorkspace, stepsSession } from '../helpers/hook-workspace.js';
import { waitForText } from '../helpers/browser.js';
import { onWorkflowPage } from '../helpers/workflow-page.js';

/**
 * An earlier conversation's plan that later lists never take up again: a new conversation's list starts empty, so the
 * earlier tasks it leaves out are not taken as removed. Its agent is told them (Codex at its next prompt: no hook
 * answers its update_plan); told and left out still once its own list is done, they no longer hold the workflow open
 * for good: they are handed on as left from an earlier plan, to check, never as the task to continue.
 */
const contextOf = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

describe('an earlier plan no later list took up', () => {
  it('Codex is told of it at its next prompt, once; then the work is over and the next conversation is shown it left', async () => {
    const { repo, baton, env } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const a = codexConversation(repo, baton, '019e1625-0000-7000-8000-00000000a001');
    a.turnStarts();
    await a.hook('SessionStart', { source: 'startup' });
    await a.ask('make the CI green');
    a.plan('1', [
      ['Reproduce the failure', 'completed'],
      ['Fix the failing checks', 'in_progress'],
      ['Push the fix', 'pending'],
    ]);
    await a.stop('Reproduced it; fixing the checks next.');
    await a.hook('SessionEnd', { reason: 'exit' });

    // a new conversation (a resume of the workflow left open) writes a plan of its own, without T2 and T3
    const b = codexConversation(repo, baton, '019e1625-0000-7000-8000-00000000b002');
    b.turnStarts();
    const started = await b.hook('SessionStart', { source: 'startup' });
    expect(contextOf(started.stdout)).toContain('Continue from task "T2: Fix the failing checks"');
    await b.ask('rebase the PR on main');
    b.plan('2', [['Rebase the PR on main', 'in_progress']]);
    await b.stop('Rebasing.');
    // its plan was read at Stop, where no hook answers: not told yet, the tasks still hold the work
    expect((await baton(['status'])).stdout).toContain('next task: T4 Rebase the PR on main (in progress)');

    // its next prompt tells it, in its plan's words
    b.turnStarts();
    const told = await b.ask('go on');
    expect(told.code).toBe(0);
    expect(contextOf(told.stdout)).toBe(
      'Baton: this workflow has open tasks your plan (update_plan) does not hold (an earlier session\'s, or added outside your list): T2 "Fix the failing checks" (in progress), T3 "Push the fix". Baton ties your list\'s items to its tasks by their words: put each of these in your list in these words, then mark it completed when it is done (at once if it is done already), or remove it if it is no longer wanted (Baton then skips it). Left out, they are handed on as left from an earlier plan once your list is done.',
    );
    expect(told.stderr).toMatch(/told the agent of 2 open task\(s\) its list leaves out: T2, T3/);
    b.plan('3', [['Rebase the PR on main', 'completed']]);
    await b.stop('Rebased on main; the PR is green.');
    // once: the prompt after says nothing of them
    b.turnStarts();
    expect((await b.ask('thanks')).stdout.trim()).toBe('');
    await b.stop('You are welcome.');

    // its list is done and it left them out, told: they no longer hold the work, and are not the next task
    const status = (await baton(['status'])).stdout;
    expect(status).toContain('next task: none');
    // T2 is still marked in progress, but no list holds it: counted as left behind, not as work under way
    expect(status).toContain('tasks: 2/4 done, 2 left behind');
    expect(
      (await baton(['status', '--json'])).json<{ counts: { tasks: Record<string, number> } }>().counts.tasks,
    ).toMatchObject({ in_progress: 0, pending: 0, left_behind: 2 });
    expect(status).toContain(
      'left behind: T2, T3 are left from an earlier plan, never taken up again by a later list: check whether they are still needed (T2 Fix the failing checks; T3 Push the fix)',
    );
    expect(status).toContain('ready to start: none');
    // the work is done while its conversation goes on: how this workflow ends is said, not only "next task: none"
    expect(status).toContain(
      "work done: every other task is finished (T2, T3 are left from an earlier plan, never taken up again by a later list: check whether they are still needed); the workflow stays open while the agent's conversation goes on (a new request adds to it): quit or /clear the agent, and its next conversation here completes this workflow and starts a new one (`baton complete` completes it now)",
    );
    // the dashboard says them as the status does: left from an earlier plan, to check, not the next task
    const id = (await baton(['status', '--json'])).json<{ workflow: { id: string } }>().workflow.id;
    await onWorkflowPage(env, repo, id, async (page) => {
      const row = page.locator('[data-task="T2"]');
      await waitForText(row.getByTestId('left-behind'), 'left from an earlier plan');
      await waitForText(row, 'no later list took it up: check whether it is still needed');
      expect(await page.getByTestId('left-behind').count()).toBe(2);
      expect(await page.locator('.tag-next').count()).toBe(0);
    });
    const briefing = (await baton(['context'])).stdout;
    expect(briefing).toContain(
      '  [ ] T2 Fix the failing checks (left from an earlier plan: check whether still needed)',
    );
    expect(briefing).not.toContain('Continue from task');
    expect(briefing).toContain(
      '### What to Do Next\nEvery other task is finished; T2, T3 are left from an earlier plan, never taken up again by a later list: check whether they are still needed.',
    );
    await b.hook('SessionEnd', { reason: 'exit' });
    expect((await baton(['status'])).stdout).not.toContain('work done:');
    expect((await baton(['status'])).stdout).toMatch(
      /work over: every other task is finished \(T2, T3 are left from an earlier plan, never taken up again by a later list: check whether they are still needed\) and Codex session \S+ ended \(exit\)/,
    );

    // the next conversation starts afresh, shown what the finished workflow left
    const c = codexConversation(repo, baton, '019e1625-0000-7000-8000-00000000c003');
    c.turnStarts();
    const next = await c.hook('SessionStart', { source: 'startup' });
    const shown = contextOf(next.stdout);
    expect(shown).toMatch(
      /Baton completed the last workflow \S+ \("make the CI green"\) before this session: every other task is finished \(T2, T3 are left from an earlier plan, never taken up again by a later list: check whether they are still needed\) and/,
    );
    expect(shown).toContain('  [ ] T3 Push the fix (left from an earlier plan: check whether still needed)');
    expect(shown).not.toContain('Continue from task');
  });

  it('Claude Code is told at once; a task it takes up again is its work, one it leaves is handed on', async () => {
    const ws = hookWorkspace();
    const { baton, repo } = ws;
    const first = stepsSession(ws);
    await first.hook('SessionStart', { source: 'startup' });
    await first.hook('UserPromptSubmit', { prompt: 'do the three steps' });
    await first.todo('t1', 'completed', 'in_progress', 'pending');
    await first.hook('SessionEnd', { reason: 'prompt_input_exit' });

    const hook = agentHooks(baton, { session_id: 'S2', cwd: repo });
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'also update the changelog' });
    const list = (...items: [string, string][]) =>
      hook('PostToolUse', {
        tool_name: 'TodoWrite',
        tool_use_id: `t${items.length}${items.map((x) => x[1][0]).join('')}`,
        tool_input: { todos: items.map(([content, status]) => ({ content, status, activeForm: 'x' })) },
        tool_response: {},
      });
    const told = await list(['Update the changelog', 'in_progress']);
    expect(contextOf(told.stdout)).toMatch(
      /^Baton: this workflow has open tasks your task list does not hold .*: T2 "Step 2" \(in progress\), T3 "Step 3"\./,
    );
    // it takes T2 up again in its words: its work, the next task
    await list(['Update the changelog', 'completed'], ['Step 2', 'in_progress']);
    expect((await baton(['status'])).stdout).toContain('next task: T2 Step 2 (in progress)');
    // and finishes its list without T3, which it was told of: handed on, the prompt after says nothing more
    await list(['Update the changelog', 'completed'], ['Step 2', 'completed']);
    expect((await hook('UserPromptSubmit', { prompt: 'thanks' })).stdout.trim()).toBe('');
    const status = (await baton(['status'])).stdout;
    expect(status).toContain('next task: none');
    expect(status).toContain(
      'left behind: T3 is left from an earlier plan, never taken up again by a later list: check whether it is still needed (T3 Step 3)',
    );
    // someone starts it again (baton task start): work again, the next task
    expect((await baton(['task', 'start', 'T3'])).code).toBe(0);
    const again = (await baton(['status'])).stdout;
    expect(again).toContain('next task: T3 Step 3 (in progress)');
    expect(again).not.toContain('left behind');
  });

  it("never hands on the user's own tasks: a list of sub-steps that leaves them out is told of them, they stay the work", async () => {
    const { baton, repo } = hookWorkspace();
    expect(
      (
        await baton([
          'create',
          '--title',
          'Retry the uploads',
          '--task',
          'T1:Retry failed uploads',
          '--task',
          'T2:Document the retries',
        ])
      ).code,
    ).toBe(0);
    expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo });
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'retry the failed uploads' });
    const list = (id: string, ...items: [string, string][]) =>
      hook('PostToolUse', {
        tool_name: 'TodoWrite',
        tool_use_id: id,
        tool_input: { todos: items.map(([content, status]) => ({ content, status, activeForm: 'x' })) },
        tool_response: {},
      });
    const told = await list(
      't1',
      ['Read the client code', 'in_progress'],
      ['Write the backoff loop', 'pending'],
    );
    expect(contextOf(told.stdout)).toContain(
      'T1 "Retry failed uploads" (in progress), T2 "Document the retries"',
    );
    await list('t2', ['Read the client code', 'completed'], ['Write the backoff loop', 'completed']);
    const status = (await baton(['status'])).stdout;
    expect(status).toContain('next task: T1 Retry failed uploads (in progress)');
    expect(status).not.toContain('left behind');
  });
});
