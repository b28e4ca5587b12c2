import { describe, expect, it } from 'vitest';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

type Json = Record<string, any>;

const briefingOf = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

describe('a pause the user asked for, still waiting when a session starts', () => {
  it('is said first in What to Do Next: why, when it takes effect, and to finish the task and end the turn', async () => {
    const { repo, baton } = hookWorkspace();
    await baton(['create', '--title', 'T', '--task', 'Y1:one', '--task', 'Y2:two:Y1']);
    await baton(['task', 'start', 'Y1']);
    expect((await baton(['pause', '--reason', 'end of day'])).stdout).toMatch(/^pause requested for wf-/);
    const said =
      /The user asked to pause this workflow \(reason: end of day\) at \S+: it takes effect when Y1 finishes\. Finish Y1 and mark it done, then end your turn saying where the work stands; start no other task \(the user resumes the work later\)\.\nContinue from task "Y1: one"\./;
    // a new Claude Code session starting here meanwhile: its briefing says it
    const hook = agentHooks(baton, { session_id: 'S2', cwd: repo });
    const start = await hook('SessionStart', { source: 'startup' });
    expect(start.code).toBe(0);
    expect(briefingOf(start.stdout)).toMatch(said);
    // as `baton context` and its JSON do
    expect((await baton(['context'])).stdout).toMatch(said);
    const json = (await baton(['context', '--json'])).json<Json>();
    expect(json.json.next.pause_waiting).toMatchObject({
      reason: 'end of day',
      tasks: ['Y1'],
      when: 'when Y1 finishes',
    });
    // withdrawn, it is said no more
    expect((await baton(['resume'])).stdout).toMatch(/pause request withdrawn/);
    expect((await baton(['context'])).stdout).not.toContain('asked to pause');
  });
});
