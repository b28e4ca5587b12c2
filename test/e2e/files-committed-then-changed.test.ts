import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { gitIn } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * Already Done names each file the agent wrote by its first change (created then edited is created). A file created,
 * committed, then edited again is not all uncommitted: its creation is in a commit, its latest edit is not. The
 * briefing says so, instead of "created bin/calc.js (uncommitted)", which reads as work no commit holds.
 */
describe('a file created, committed and edited since', () => {
  it('is said committed, then changed, in Already Done', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const c = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000d1');
    let n = 0;
    // an apply_patch call as Codex writes it in its rollout, and the file written
    const patch = (path: string, content: string) => {
      const kind = n === 0 || !path.endsWith('calc.js') ? 'Add' : 'Update';
      const id = `call_patch${++n}`;
      mkdirSync(join(repo, 'bin'), { recursive: true });
      writeFileSync(join(repo, path), content);
      const body = content
        .split('\n')
        .map((l) => `+${l}\n`)
        .join('');
      c.write(
        c.line('response_item', {
          type: 'custom_tool_call',
          status: 'completed',
          call_id: id,
          name: 'apply_patch',
          input: `*** Begin Patch\n*** ${kind} File: ${path}\n${body}*** End Patch\n`,
        }),
        c.line('response_item', {
          type: 'custom_tool_call_output',
          call_id: id,
          output: JSON.stringify({
            output: `Success. Updated the following files:\n${kind === 'Add' ? 'A' : 'M'} ${path}\n`,
            metadata: { exit_code: 0 },
          }),
        }),
      );
    };
    c.start();
    await c.hook('SessionStart', { source: 'startup' });
    c.turnStarts();
    await c.ask('Add a command-line entry point bin/calc.js');
    patch('bin/calc.js', "console.log('calc');");
    gitIn(repo, 'add', 'bin/calc.js');
    gitIn(repo, 'commit', '-q', '-m', 'Add the CLI entry point');
    const hash = gitIn(repo, 'rev-parse', '--short', 'HEAD').trim();
    expect((await c.stop('Added bin/calc.js and committed it.')).code).toBe(0);

    c.turnStarts();
    await c.ask('make it print the usage too');
    patch('bin/calc.js', "console.log('calc');\nconsole.log('usage: calc <a> <op> <b>');");
    expect((await c.stop('It prints the usage now.')).code).toBe(0);

    const context = (await baton(['context'])).stdout;
    const done = context.slice(context.indexOf('### Already Done'));
    expect(done).toContain(`${hash} Add the CLI entry point`);
    expect(done).toContain('created bin/calc.js (committed, then changed: uncommitted)');
    expect(done).not.toContain('created bin/calc.js (uncommitted)');
  });
});
