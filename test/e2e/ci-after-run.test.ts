import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

// The hooks read a CI report the agent read (`gh pr checks`) as its own fact beside the local test runs: the next
// session is told CI passed on the changes pushed after the last local run, not only to run it again.

type Json = Record<string, unknown>;

/** A Claude Code transcript written line by line, each line a second after the one before. */
function transcript(sessionId: string) {
  const path = join(tempDir('baton-transcript-'), 'session.jsonl');
  writeFileSync(path, '');
  const t0 = Date.now() - 60_000;
  let n = 0;
  const write = (type: string, message: Json) =>
    appendFileSync(
      path,
      `${JSON.stringify({ type, timestamp: new Date(t0 + ++n * 1000).toISOString(), sessionId, message })}\n`,
    );
  const tool = (name: string, input: Json, result: string) => {
    const id = `toolu-${n}`;
    write('assistant', { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
    write('user', {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: false }],
    });
  };
  return {
    path,
    ask: (text: string) => write('user', { role: 'user', content: text }),
    say: (text: string) =>
      write('assistant', { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text }] }),
    tool,
  };
}

const tdd = (text: string) => /### TDD State\n(?:.*\n)*?\n/.exec(text)?.[0] ?? '';

describe('a CI report read after the last local test run', () => {
  it('tells the next session CI passed on the changes pushed since, or that it failed', async () => {
    for (const outcome of ['pass', 'fail'] as const) {
      const { repo, baton } = hookWorkspace();
      const hook = agentHooks(baton, { cwd: repo });
      expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
      const one = `c1a00000-0000-4000-8000-00000000000${outcome === 'pass' ? 1 : 2}`;
      const t = transcript(one);
      await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: t.path });
      t.ask('Fix the parser, push it and check CI');
      await hook('UserPromptSubmit', {
        session_id: one,
        transcript_path: t.path,
        prompt: 'Fix the parser, push it and check CI',
      });
      t.tool('Bash', { command: 'npx vitest run' }, ' Test Files  3 passed (3)\n      Tests  12 passed (12)');
      t.tool('Edit', { file_path: join(repo, 'parser.js'), old_string: 'a', new_string: 'b' }, 'updated');
      t.tool(
        'Bash',
        { command: 'git push origin main' },
        'To github.com:acme/parser.git\n   1a2b3c4..5d6e7f8  main -> main',
      );
      const checks = [
        { name: 'build', state: 'SUCCESS', bucket: 'pass' },
        { name: 'lint', state: outcome === 'pass' ? 'SUCCESS' : 'FAILURE', bucket: outcome },
      ];
      t.tool('Bash', { command: 'gh pr checks 12 --json name,state,bucket' }, JSON.stringify(checks));
      t.say(outcome === 'pass' ? 'Pushed; CI is green.' : 'Pushed; lint fails in CI.');
      await hook('Stop', { session_id: one, transcript_path: t.path, stop_hook_active: false });
      await hook('SessionEnd', { session_id: one, transcript_path: t.path, reason: 'other' });

      const next = await hook('SessionStart', { session_id: `${one.slice(0, -1)}9`, source: 'startup' });
      const text = (JSON.parse(next.stdout) as { hookSpecificOutput: { additionalContext: string } })
        .hookSpecificOutput.additionalContext;
      const state = tdd(text);
      if (outcome === 'pass') {
        expect(state).toContain(
          '- 1 file changed after this run, then pushed: CI passed on them since (2 of 2 checks passed, read by `gh pr checks 12 --json name,state,bucket`); the local run is older than them',
        );
        expect(state).not.toContain('run it again before trusting it');
      } else {
        expect(state).toContain('run it again before trusting it');
        expect(state).toContain('1 of 2 checks failed (lint)');
      }
    }
  });
});
