import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

/**
 * `baton run` of three tasks whose first run of T1 fills the agent's context ("Prompt is too long", at 199000 of
 * 200000 tokens): the prompts each run of the fake Claude Code received, in order, and the run's JSON report.
 */
async function contextFullOnce(extraArgs: string[] = []) {
  const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
  expect((await ws.create()).code).toBe(0);
  const prompts = tempDir('baton-prompts-');
  const r = await ws.cli(['run', '--agent', 'claude-code', '--context-window', '200000', ...extraArgs], {
    FAKE_PROMPT_DIR: prompts,
    FAKE_CONTEXT_FULL_ONCE: join(tempDir('baton-full-'), 'filled'),
    FAKE_CONTEXT_TOKENS: '30000',
  });
  const sent = readdirSync(prompts)
    .sort()
    .map((f) => readFileSync(join(prompts, f), 'utf8'));
  return { ws, r, sent };
}

describe('`baton run` when the agent fills its context', () => {
  it('hands the fresh session the truth: the context filled up, do that step in smaller parts; its error is over', async () => {
    const { r, sent } = await contextFullOnce();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ fallbacks: string[] }>().fallbacks).toEqual(['context full']);
    // T1 filled up, T1 again in a fresh session with the compiled context, then T2 and T3
    expect(sent.map((p) => /^## Task (\S+):/m.exec(p)?.[1])).toEqual(['T1', 'T1', 'T2', 'T3']);
    const fresh = sent[1] ?? '';
    expect(fresh).toContain(
      "The previous session ended because: the agent's context filled up on the last turn (Prompt is too long), so this session goes on from the compiled context: do the step that turn was on in smaller parts (read or print less at once), not again as it was.",
    );
    expect(fresh).not.toContain('retry it');
    // the error the fresh session's taking over ended is not its problem to solve
    expect(fresh).not.toContain('UNRESOLVED');
    expect(fresh).toContain('  - agent_error: agent: Prompt is too long [fixed]');
  });
});
