import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

type Json = Record<string, unknown>;

function workspace() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
  const hook = (event: string, fields: Json, agent?: 'codex') =>
    runCli(['hook', event, ...(agent ? ['--agent', agent] : [])], {
      cwd: repo,
      env,
      input: JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }),
    });
  return { hook };
}

const told = (stdout: string) =>
  stdout.trim() ? ((JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '') : '';

describe('a new conversation that joins the workflow another conversation started', () => {
  // A Codex conversation opened a workflow and recorded nothing in it (its Stop could not import the rollout); the
  // next Claude Code session in the worktree goes on in that workflow: the user is told, with the way out.
  for (const asked of [false, true])
    it(`is said to the user ${asked ? 'when the workflow holds a request' : 'though nothing is recorded in the workflow yet'}`, async () => {
      const { hook } = workspace();
      const id = '019e1625-789d-76c0-80ab-3724b5ddb799';
      const codex = {
        session_id: id,
        turn_id: 't1',
        transcript_path: join(tempDir('baton-rollout-'), `rollout-2026-11-30T09-00-00-${id}.jsonl`),
      };
      const start = await hook('SessionStart', { ...codex, source: 'startup' }, 'codex');
      expect(start.stderr).toMatch(/following this session as workflow (wf-\S+)\)/);
      const workflow = /workflow (wf-[^\s)]+)/.exec(start.stderr)![1]!;
      if (asked) await hook('UserPromptSubmit', { ...codex, prompt: 'add a licence' }, 'codex');
      const stop = await hook('Stop', { ...codex, last_assistant_message: 'Done.' }, 'codex');
      expect(told(stop.stdout)).toMatch(/^Baton: the Stop hook failed: transcript not imported/);

      const next = await hook('SessionStart', { session_id: 'claude-2', source: 'startup' });
      expect(next.code).toBe(0);
      expect(next.stderr).toContain(`following workflow ${workflow} as session 2`);
      expect(told(next.stdout)).toMatch(
        new RegExp(
          `^Baton continues workflow ${workflow} ".+" in this conversation \\(session 2\\); if this conversation is for other work, \`baton abandon -w ${workflow}\` ends that workflow and your next prompt starts a new one$`,
        ),
      );
    });
});
