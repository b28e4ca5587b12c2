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

  it('withdraws the pause the full context asked for: the fresh session, nearly empty, goes on to the end', async () => {
    // one session allowed: a pause taken at T1's end would stop the run there
    const { ws, r } = await contextFullOnce(['--max-sessions', '1']);
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<{ status: string; sessions: number; tasks: { id: string; outcome: string }[] }>();
    expect(report.status).toBe('completed');
    expect(report.sessions).toBe(1);
    expect(report.tasks.map((t) => [t.id, t.outcome])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
      ['T3', 'done'],
    ]);
    const events = ws.events();
    // the pause was asked at 199000 of 200000 tokens, then withdrawn when the fresh session took over: no pause taken,
    // and no snapshot gives the dead session's figure for a reason
    expect(events.filter((e) => e.type === 'workflow.pause_requested').map((e) => e.data.reason)).toEqual([
      'context 100% full (199000 of 200000 tokens)',
    ]);
    expect(events.filter((e) => e.type === 'workflow.pause_withdrawn')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'workflow.paused')).toEqual([]);
    const snapshots = events.filter((e) => e.type === 'snapshot.taken');
    expect(snapshots.length).toBeGreaterThan(0);
    expect(JSON.stringify(snapshots)).not.toContain('199000 of 200000');
    // the run's log says why the request was withdrawn
    expect(r.stderr).toContain(
      'task T1: context full; continuing in a new driver session with the compiled context (the pause its full context asked for, context 100% full (199000 of 200000 tokens), is withdrawn: the new session starts nearly empty)',
    );
  });
});
