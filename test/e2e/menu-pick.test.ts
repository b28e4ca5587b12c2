import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

/** The FSM1 session: the agent lists the pending todos in a table, the user answers "5 seems like a great one to tackle". */
const PICKED = 'claude-code/FSM1-cipher-box/01/485d538f55/0/full.jsonl';

describe("a request that names an item of the agent's list by its number or letter", () => {
  it('is said in the Goal with the item it names, read from the transcript an import reads', async () => {
    const { baton } = hookWorkspace();
    expect((await baton(['import', corpusPath(PICKED)])).code).toBe(0);
    const context = (await baton(['context', '--budget', '1500'])).stdout;
    expect(context).toContain(
      "The user asked: 5 seems like a great one to tackle (item 5 of the agent's list before it: Fix FUSE rename on SMB backend | desktop | 3d ago)",
    );
    expect((await baton(['details', 'requests'])).stdout).toContain(
      "(item 5 of the agent's list before it: Fix FUSE rename on SMB backend | desktop | 3d ago)",
    );
    // the workflow the import made is named after it too
    expect(
      (await baton(['status', '--json'])).json<{ workflow: { title: string } }>().workflow.title,
    ).toMatch(/^5 seems like a great one to tackle \(Fix FUSE rename/);
  });

  it('is said with the item of the message the Stop hook kept, when the hooks follow the session; a letter counts as a request, not a go-ahead', async () => {
    const { repo, baton } = hookWorkspace();
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo });
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    await hook('UserPromptSubmit', { prompt: 'The import drops the BOM of some files: look into it' });
    await hook('Stop', {
      stop_hook_active: false,
      last_assistant_message:
        'Found it: the loader strips the BOM, the parser expects it. Two ways:\n\n1. **Patch the parser** to accept both\n2. **Keep the BOM** in the loader\n\nWhich one?',
    });
    await hook('UserPromptSubmit', { prompt: 'go with 2' });
    await hook('Stop', {
      stop_hook_active: false,
      last_assistant_message: 'Either:\nA) add a test for it first\nB) ship it as is',
    });
    await hook('UserPromptSubmit', { prompt: 'a' });
    const context = (await baton(['context'])).stdout;
    expect(context).toContain('The user asked: The import drops the BOM of some files: look into it\n');
    expect(context).toContain(
      `  - "go with 2" (item 2 of the agent's list before it: Keep the BOM in the loader)\n`,
    );
    expect(context).toContain(`  - "a" (item A of the agent's list before it: add a test for it first)\n`);
  });

  it("keeps the first request's item past the requests the state holds, and the budget with an item to every request", async () => {
    const { repo, baton } = hookWorkspace();
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo });
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const list = (n: number) =>
      [1, 2, 3]
        .map((i) => `${i}. ${`Option ${n}.${i}: rework the loader's handling of encodings `.repeat(3)}`)
        .join('\n');
    // a greeting first: the request that names an item is the first that asks for work, the workflow's issue
    await hook('UserPromptSubmit', { prompt: 'hi' });
    await hook('Stop', { stop_hook_active: false, last_assistant_message: `Where to start?\n${list(0)}` });
    await hook('UserPromptSubmit', { prompt: '2 sounds good' });
    for (let n = 1; n <= 12; n++) {
      await hook('Stop', { stop_hook_active: false, last_assistant_message: `Next?\n${list(n)}` });
      await hook('UserPromptSubmit', { prompt: `go with ${1 + (n % 3)}` });
    }
    const whole = (await baton(['context'])).stdout;
    expect(whole).toContain(
      "The user asked: 2 sounds good (item 2 of the agent's list before it: Option 0.2: rework",
    );
    for (const budget of [250, 400]) {
      const c = (await baton(['context', '--budget', String(budget), '--json'])).json<{
        tokens: number;
        over_budget: boolean;
      }>();
      expect(c.over_budget, `at ${budget}`).toBe(false);
      expect(c.tokens, `at ${budget}`).toBeLessThanOrEqual(budget);
    }
  });

  it("takes the list from the conversation's own transcript when two conversations follow one workflow", async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    // conversation A: its agent offered two ways, written to its transcript as Claude Code writes it
    const path = join(tempDir('baton-transcript-'), 'A.jsonl');
    const line = (uuid: string, at: string, message: { role: string; [k: string]: unknown }) =>
      JSON.stringify({ type: message.role, uuid, sessionId: 'A', cwd: repo, timestamp: at, message });
    writeFileSync(
      path,
      [
        line('u1', '2026-12-04T10:00:00.000Z', { role: 'user', content: 'The upload is flaky: sort it out' }),
        line('a1', '2026-12-04T10:00:05.000Z', {
          id: 'msg_a1',
          role: 'assistant',
          content: [
            {
              type: 'text',
              text: 'Two ways:\n\n1. **Retry the upload** on a timeout\n2. **Raise the timeout** to 60 s\n\nWhich one?',
            },
          ],
        }),
      ].join('\n') + '\n',
    );
    const a = agentHooks(baton, { session_id: 'A', cwd: repo, transcript_path: path });
    const b = agentHooks(baton, { session_id: 'B', cwd: repo });
    await a('UserPromptSubmit', { prompt: 'The upload is flaky: sort it out' });
    // conversation B, on the same workflow, ended its turn on a list of its own after A's
    await b('UserPromptSubmit', { prompt: 'and check the docs of the upload' });
    await b('Stop', {
      stop_hook_active: false,
      last_assistant_message: 'In the docs:\n1. the README\n2. the API page',
    });
    const picked = await a('UserPromptSubmit', { prompt: 'go with 2' });
    expect(picked.code).toBe(0);
    expect((await baton(['context'])).stdout).toContain(
      `"go with 2" (item 2 of the agent's list before it: Raise the timeout to 60 s)`,
    );
  });
});
