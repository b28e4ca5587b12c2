import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * A request said after the task list last moved is put first in What to Do Next ("first do the latest request"), as
 * the tasks answer an older one; but an agent that took the request into its list (a new pending step, the step in
 * progress left as it was) already answers it with that task: the briefing goes on from the list.
 */
describe('a later request the agent put in its task list', () => {
  it('is not said newer than the list, and one said after that list is', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const c = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000a1');
    c.start();
    await c.hook('SessionStart', { source: 'startup' });
    c.turnStarts();
    await c.ask('Add subtract to calc.js with a test');
    c.plan('1', [
      ['Add subtract to calc.js', 'in_progress'],
      ['Test subtract', 'pending'],
    ]);
    expect((await c.stop('Started on subtract; the test comes next.')).code).toBe(0);

    // the next request, and the agent's plan takes it in as a step of its own before the context is compacted
    c.turnStarts();
    await c.ask('also add divide, throwing on division by zero');
    c.plan('2', [
      ['Add subtract to calc.js', 'in_progress'],
      ['Test subtract', 'pending'],
      ['Add divide that throws on division by zero', 'pending'],
    ]);
    const pre = await c.hook('PreCompact', { trigger: 'auto' });
    expect(pre.stderr).toContain('tasks: 1 added');
    const context = (await baton(['context'])).stdout;
    expect(context).toContain('[ ] T3 Add divide that throws on division by zero');
    expect(context).not.toContain('first do the latest request');
    expect(context).toContain('### What to Do Next\nContinue from task "T1: Add subtract to calc.js"');

    // a request said after that list is newer than it: first
    await c.ask('and multiply too');
    const later = (await baton(['context'])).stdout;
    expect(later).toContain(
      '### What to Do Next\nUnless done above, first do the latest request (the last of the Later requests, under Goal), newer than the task list; then continue from task "T1: Add subtract to calc.js"',
    );
  });
});
