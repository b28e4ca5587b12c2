import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

// An import reads a finished conversation: its agent is gone, nothing runs the workflow it fed, and the agent's next
// session in the worktree goes on with it. No surface says it runs, nor that it is "not stopped" for good.

/** A finished Claude Code transcript: a request, a task list all done, the agent's last word. */
function finishedTranscript(repo: string) {
  const path = join(tempDir('baton-transcript-'), 'session.jsonl');
  const sessionId = '5a1e0000-0000-4000-8000-0000000000aa';
  const start = Date.now() - 3_600_000;
  const lines: object[] = [];
  const write = (type: string, message: object) =>
    lines.push({
      type,
      timestamp: new Date(start + lines.length * 1000).toISOString(),
      sessionId,
      cwd: repo,
      message,
    });
  write('user', { role: 'user', content: 'Rename a.js to alpha.js and open a PR' });
  write('assistant', {
    id: 'm1',
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id: 'toolu-1',
        name: 'TodoWrite',
        input: {
          todos: [
            { content: 'Rename a.js', status: 'completed', activeForm: 'Renaming' },
            { content: 'Open the PR', status: 'completed', activeForm: 'Opening' },
          ],
        },
      },
    ],
  });
  write('user', {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu-1', content: 'Todos have been modified successfully' },
    ],
  });
  write('assistant', {
    id: 'm2',
    role: 'assistant',
    content: [{ type: 'text', text: 'Done: renamed and opened the PR https://github.com/o/r/pull/7.' }],
  });
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

describe('a workflow an import fed, its agent gone', () => {
  it('reads as waiting for the next agent session in its worktree, which goes on with it', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const imported = await baton(['import', finishedTranscript(repo)]);
    expect(imported.code, imported.stderr).toBe(0);
    const id = /created (wf-\S+)/.exec(imported.stdout + imported.stderr)?.[1] as string;

    const sessions = await baton(['sessions']);
    expect(sessions.stdout).toMatch(
      new RegExp(`${id} .* at rest .* yes: the next agent session in its worktree$`, 'm'),
    );
    // `baton list` says its status in the same words
    expect((await baton(['list'])).stdout).toMatch(new RegExp(`^${id} +at rest `, 'm'));
    expect(sessions.stdout).not.toContain('not stopped');
    const json = JSON.parse((await baton(['--json', 'sessions'])).stdout) as { sessions: object[] };
    expect(json.sessions).toMatchObject([
      {
        id,
        resumable: true,
        resume_by: 'next_session',
        continued_by: 'the next agent session in its worktree',
      },
    ]);
    // nothing runs it: not "no agent seen" in an open session, as of one a person drives by hand
    const status = (await baton(['session-status'])).stdout;
    expect(status).toContain(
      'agent running: no (an imported session, which no agent works on); the next agent session in its worktree goes on with it',
    );
    expect(status).toContain('resumable: yes: the next agent session in its worktree');
    // a resume has nothing to do, and says what takes it up instead of "it is not stopped"
    const resume = await baton(['resume', '-w', id]);
    expect(resume.code).not.toBe(0);
    expect(resume.stderr).toContain(
      `it was read in from a transcript (\`baton import\`) and no agent works on it: an agent session in its worktree ${repo} with Baton's hooks (\`baton init\`) goes on with it, or \`baton run -w ${id}\` drives it; nothing to resume`,
    );

    // and so it does: the next conversation's hooks take it up
    const start = await agentHooks(baton, { cwd: repo })('SessionStart', {
      session_id: 'next-1',
      source: 'startup',
    });
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain(`Baton continues workflow ${id}`);
  });
});
