import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

type Json = Record<string, any>;

/**
 * A workflow the hooks follow is over once every task of the agent's list is done and its conversation ended: the
 * next morning's new conversation starts a new workflow, told of the finished one. A `baton pause` ("end of day")
 * asked once the work was done does not make it work to go on with: the pause held nothing back. One paused while a
 * task was still under way is resumed as before.
 */
describe('a workflow paused once its work was done', () => {
  const day1 = async (pauseMidTask: boolean) => {
    const ws = hookWorkspace();
    const { repo, baton } = ws;
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const c = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000e1');
    c.start();
    await c.hook('SessionStart', { source: 'startup' });
    c.turnStarts();
    await c.ask('Add subtract and divide to calc.js');
    c.plan('1', [
      ['Add subtract', 'completed'],
      ['Add divide', 'in_progress'],
    ]);
    expect((await c.stop('Subtract is in; divide comes next.')).code).toBe(0);
    c.turnStarts();
    await c.ask('go on');
    if (pauseMidTask) {
      // the last step still under way when the turn ends: the pause takes effect in the middle of it
      c.plan('2', [
        ['Add subtract', 'completed'],
        ['Add divide', 'in_progress'],
      ]);
    } else {
      c.plan('2', [
        ['Add subtract', 'completed'],
        ['Add divide', 'completed'],
      ]);
    }
    // the user asks for the pause while the agent's turn is under way: it waits for that turn's end
    const asked = await baton(['pause', '--reason', 'end of day']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('pause requested');
    expect((await c.stop(pauseMidTask ? 'Divide is half done.' : 'Both are in.')).code).toBe(0);
    const s = (await baton(['status', '--json'])).json<Json>();
    expect(s.workflow.status).toBe('paused');
    expect((await c.hook('SessionEnd', { reason: 'prompt_input_exit' })).code).toBe(0);
    return { ...ws, first: s.workflow.id as string };
  };

  it('is completed by the next new conversation, which starts a new one told of it', async () => {
    const { repo, baton, first } = await day1(false);
    const status = (await baton(['status'])).stdout;
    expect(status).toContain(
      'work over: all 2 of its tasks are done and it was paused after that (end of day), so the next new agent conversation here completes this workflow and starts a new one',
    );
    // its conversation ended: going on with it is for `baton run` now
    expect(status).toContain(
      `to go on with it: \`baton run -w ${first}\` (Baton runs the agent); a new Codex conversation here completes it instead and starts a new workflow (its work is over)`,
    );
    const next = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000e2');
    next.start();
    const start = await next.hook('SessionStart', { source: 'startup' });
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toContain(`completed workflow ${first}`);
    expect(start.stdout).not.toContain('resumed workflow');
    // the briefing names it as the work done before, with what it did
    expect(start.stdout).toContain(first);
    expect(start.stdout).toContain('Add divide');
    const now = (await baton(['status'])).stdout;
    expect(now).not.toContain(first + '  ');
    expect(now).toContain(`earlier: ${first} "Add subtract and divide to calc.js", completed before`);
    const old = (await baton(['status', '--json', '-w', first])).json<Json>();
    expect(old.workflow.status).toBe('completed');
  });

  it('paused with a task under way, is resumed by the next new conversation', async () => {
    const { repo, baton, first } = await day1(true);
    const next = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000e3');
    next.start();
    const start = await next.hook('SessionStart', { source: 'startup' });
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).not.toContain(`completed workflow ${first}`);
    expect((await baton(['status', '--json'])).json<Json>().workflow.id).toBe(first);
  });
});
