import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

// A team's Baton server killed while an agent works a turn (BATON_URL set): every hook of the outage fails fast. The
// user is told the failure whole once, a new conversation gets a line, and the first hook that reaches the server
// again reads the turn the failed hooks missed and says the server answers again; meanwhile `baton status` names the
// transcript as unread.

const SESSION = '11111111-aaaa-4aaa-8aaa-000000000001';
const told = (stdout: string) =>
  stdout.trim() ? ((JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '') : '';

describe('agent hooks through a Baton server that went down', () => {
  it('say the failure once, name the transcript unread, and catch up at the first hook it answers', async () => {
    const repo = makeRepo();
    const serverHome = tempDir('baton-server-');
    let s: ServerProcess = await startServerProcess(serverHome, { cwd: repo });
    const home = tempDir('baton-home-');
    const user = tempDir('baton-user-');
    const envOf = (server: ServerProcess) => ({
      BATON_HOME: home,
      HOME: user,
      BATON_URL: server.url,
      BATON_TOKEN: server.token,
    });
    let env = envOf(s);
    const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
    writeFileSync(transcript, '');
    const write = (type: 'user' | 'assistant', uuid: string, content: unknown) =>
      appendFileSync(
        transcript,
        `${JSON.stringify({
          type,
          uuid,
          sessionId: SESSION,
          cwd: repo,
          timestamp: new Date().toISOString(),
          message: { id: `m-${uuid}`, role: type, content },
        })}\n`,
      );
    const hook = (event: string, more: Record<string, unknown> = {}, session = SESSION) =>
      runCli(['hook', event], {
        cwd: repo,
        env,
        input: JSON.stringify({
          hook_event_name: event,
          session_id: session,
          transcript_path: transcript,
          cwd: repo,
          ...more,
        }),
      });
    const requests = async () => {
      const out = await runCli(['details', 'requests', '--json'], { cwd: repo, env });
      return (JSON.parse(out.stdout) as { text: string }[]).map((r) => r.text);
    };
    try {
      await hook('SessionStart', { source: 'startup' });
      await hook('UserPromptSubmit', { prompt: 'plan the session tracking' });
      write('user', 'u1', 'plan the session tracking');
      write('assistant', 'a1', [{ type: 'text', text: 'Here is the plan.' }]);
      expect((await hook('Stop')).stderr).toMatch(/imported 2 new transcript entries/);

      // the server is killed while the agent works its next turn
      const gone = new Promise((done) => s.child.once('exit', done));
      s.child.kill('SIGKILL');
      await gone;
      const first = await hook('UserPromptSubmit', { prompt: 'now write it to specs/plan.md' });
      expect(first.code).toBe(0);
      expect(told(first.stdout)).toMatch(
        /^Baton: the UserPromptSubmit hook failed: cannot reach the Baton server at \S+ \(ECONNREFUSED\).*Run `baton doctor`/,
      );
      write('user', 'u2', 'now write it to specs/plan.md');
      write('assistant', 'a2', [
        {
          type: 'text',
          text: 'I wrote specs/plan.md. I decided to keep one session file per tab because tabs share a folder.',
        },
      ]);
      // the same outage: the other hooks fail as fast, and say nothing more to the user
      const stop = await hook('Stop');
      expect(stop.stderr).toMatch(/cannot reach the Baton server/);
      expect(told(stop.stdout)).toBe('');
      const tasks = await hook('PostToolUse', {
        tool_name: 'TodoWrite',
        tool_input: {
          todos: [{ content: 'Write specs/plan.md', status: 'completed', activeForm: 'Writing' }],
        },
        tool_response: {},
        tool_use_id: 'toolu_1',
      });
      expect(tasks.stderr).toMatch(/cannot reach the Baton server/);
      expect(told(tasks.stdout)).toBe('');
      // a new conversation is told in one line
      const other = await hook('SessionStart', { source: 'startup' }, '22222222-aaaa-4aaa-8aaa-000000000002');
      expect(told(other.stdout)).toMatch(
        /^Baton still cannot reach its store \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC, as said then\): nothing is lost, this session's briefing and work are read once it answers again; `baton doctor` says why$/,
      );

      // the server is back (same database); before any hook reaches it, status names the transcript as unread
      s = await startServerProcess(serverHome, { cwd: repo });
      env = envOf(s);
      const status = (await runCli(['status', '--json'], { cwd: repo, env })).json<{
        unread_transcripts: { path: string; why: string }[];
      }>();
      expect(status.unread_transcripts).toMatchObject([
        {
          path: transcript,
          why: expect.stringMatching(
            /^its hooks could not reach Baton's store since .+ UTC; the next one that reaches it reads it$/,
          ),
        },
      ]);
      expect(await requests()).not.toContain('now write it to specs/plan.md');

      // the first hook that reaches it reads the turn it missed, and says the server answers again, once
      const back = await hook('UserPromptSubmit', { prompt: 'thanks' });
      expect(told(back.stdout)).toMatch(
        /^Baton reaches its store again \(its hooks here could not since .+ UTC\): read the 2 transcript entries written meanwhile\./,
      );
      expect(back.stderr).toMatch(
        /the store answers again: read 2 entries that \S+ gained since its last import/,
      );
      expect(await requests()).toEqual(
        expect.arrayContaining(['plan the session tracking', 'now write it to specs/plan.md', 'thanks']),
      );
      const decisions = await runCli(['details', 'decisions'], { cwd: repo, env });
      expect(decisions.stdout).toContain('keep one session file per tab');
      const after = (await runCli(['status', '--json'], { cwd: repo, env })).json<{
        unread_transcripts: unknown[];
      }>();
      expect(after.unread_transcripts).toEqual([]);
      write('user', 'u3', 'thanks');
      const next = await hook('Stop');
      expect(told(next.stdout)).toBe('');
      expect(next.stderr).not.toMatch(/answers again/);
    } finally {
      await s.stop();
    }
  }, 90_000);
});
