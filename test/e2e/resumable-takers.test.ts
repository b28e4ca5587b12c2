import { afterAll, describe, expect, it } from 'vitest';
import { codexHook } from '../helpers/codex-conversation.js';
import { hookWorkspace, stepsSession } from '../helpers/hook-workspace.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

// Who goes on with a workflow the hooks follow, as `baton sessions`, `baton resume` and the dashboard's Resumable list
// say it (core `resumability`): every agent whose conversation followed it, since any of them may take it up next.

type Row = { id: string; resumable: boolean; resume_by: string | null; continued_by: string | null };

describe('who goes on with a workflow the hooks follow', () => {
  const servers: ServerProcess[] = [];
  afterAll(() => Promise.all(servers.map((x) => x.stop())));

  it('a Claude Code window Codex took over from, left open: both are named, not Codex alone', async () => {
    const ws = hookWorkspace();
    const { baton, repo } = ws;
    // both agents' hooks set up here, as `baton init --agent all` does: the sessions table names both as followed
    expect((await baton(['init', '--agent', 'all'])).code).toBe(0);
    const { hook, todo } = stepsSession(ws);
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'in_progress', 'pending');
    await hook('Stop', { last_assistant_message: 'Step 1 is under way.' });
    const codex = codexHook(baton, { repo, id: '019e0000-0000-7000-8000-00000000c0de', transcript: null });
    await codex('SessionStart', { source: 'startup' });
    await codex('UserPromptSubmit', { prompt: 'Go on with step 1' });
    await codex('Stop', { stop_hook_active: false, last_assistant_message: 'Step 1 is nearly done.' });
    const rows = (await baton(['sessions', '--json'])).json<{ sessions: Row[] }>().sessions;
    const takers = 'the next Codex or Claude Code session in its worktree';
    expect(rows).toEqual([
      expect.objectContaining({ resumable: true, resume_by: 'next_session', continued_by: takers }),
    ]);
    expect((await baton(['sessions'])).stdout).toContain(`yes: ${takers}`);
    // the dashboard's Resumable list reads the server's sessions: "<continued_by> goes on with it"
    const server = await startServerProcess(ws.env.BATON_HOME, { cwd: repo });
    servers.push(server);
    const listed = await fetch(`${server.url}/api/sessions`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(((await listed.json()) as { sessions: Row[] }).sessions).toEqual([
      expect.objectContaining({ resume_by: 'next_session', continued_by: takers }),
    ]);
    await server.stop();
    const resume = await baton(['resume']);
    expect(resume.code).toBe(3);
    expect(resume.stderr).toContain(
      `the next Codex or Claude Code session in its worktree ${repo} continues it`,
    );
    // and so it is: the Claude Code window's next prompt goes on with the workflow
    await hook('UserPromptSubmit', { prompt: 'Finish step 1' });
    const s = (await baton(['status', '--json'])).json<Record<string, any>>();
    expect(s.workflow.id).toBe(rows[0]?.id);
    expect(s.following_agent).toBe('claude-code');
  });
});
