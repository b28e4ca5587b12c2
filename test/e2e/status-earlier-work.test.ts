import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * The next morning a new Codex conversation completes yesterday's workflow (all its tasks done, the user quit) and is
 * followed as a new one, empty yet. `baton status`, what a person runs to see where things stand, names the workflow
 * it went on from, as the briefing does, instead of showing only an empty workflow as if nothing had been done here.
 */
describe('baton status of a workflow that went on from an earlier one', () => {
  it('names the earlier workflow and how to see what it did', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const day1 = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000b1');
    day1.start();
    await day1.hook('SessionStart', { source: 'startup' });
    day1.turnStarts();
    await day1.ask('Add subtract to calc.js');
    day1.plan('1', [['Add subtract to calc.js', 'completed']]);
    expect((await day1.stop('Added subtract.')).code).toBe(0);
    expect((await day1.hook('SessionEnd', { reason: 'prompt_input_exit' })).code).toBe(0);
    const first = (await baton(['status', '--json'])).json<{ workflow: { id: string } }>().workflow.id;

    const day2 = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000b2');
    day2.start();
    expect((await day2.hook('SessionStart', { source: 'startup' })).stderr).toContain(
      `completed workflow ${first}`,
    );
    const status = await baton(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('tasks: none (the agent made no task list');
    expect(status.stdout).toContain(
      `earlier: ${first} "Add subtract to calc.js", completed before the conversation this workflow follows began (\`baton context -w ${first}\` shows what it did)`,
    );
  });
});
