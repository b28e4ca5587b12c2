import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';

// A team's Baton server that hangs (stopped, wedged: it takes connections and never answers) costs a hook its whole
// time budget. Once one went unanswered, the next hooks ask the server's health check first (1.5 s) and do not wait
// for one that does not answer; when it answers again, hooks go on as before.

/** The UserPromptSubmit hook of one conversation in `repo`, as Claude Code runs it. */
const prompter = (repo: string, env: Record<string, string>, session: string) => (text: string) =>
  runCli(['hook', 'UserPromptSubmit'], {
    cwd: repo,
    env,
    input: JSON.stringify({
      cwd: repo,
      hook_event_name: 'UserPromptSubmit',
      session_id: session,
      prompt: text,
    }),
  });

describe('agent hooks and a Baton server that hangs', () => {
  it('wait out one hook, then do not wait for a server that still does not answer', async () => {
    const repo = makeRepo();
    const s = await startServerProcess(tempDir('baton-server-'), { cwd: repo });
    const env = {
      BATON_HOME: tempDir('baton-home-'),
      HOME: tempDir('baton-user-'),
      BATON_URL: s.url,
      BATON_TOKEN: s.token,
    };
    const prompt = prompter(repo, env, 'hung-0001');
    const told = (stdout: string) =>
      stdout.trim() ? ((JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '') : '';
    try {
      expect((await prompt('add a /health endpoint')).stderr).not.toMatch(/did not answer|ran out of time/);
      s.child.kill('SIGSTOP');
      try {
        // the first hook after it hung waits its budget out, and says so
        const first = await prompt('and a test for it');
        expect(first.code).toBe(0);
        expect(told(first.stdout)).toMatch(/the UserPromptSubmit hook ran out of time: no answer within 8 s/);
        // the next one asks the health check and does not wait: said once, with what to check
        const second = await prompt('also document it');
        expect(second.code).toBe(0);
        expect(second.stderr).toContain(
          `the Baton server at ${s.url} did not answer within 1.5 s, nor did it answer a hook here at`,
        );
        expect(told(second.stdout)).toMatch(/check that `baton serve` runs there, not stopped or hung/);
        const third = await prompt('and the changelog');
        expect(third.stderr).toMatch(/did not answer within 1.5 s/);
        expect(told(third.stdout)).toBe('');
        // a command waits for it up to BATON_REQUEST_TIMEOUT (60 s unless set), then says so
        const status = await runCli(['status'], { cwd: repo, env: { ...env, BATON_REQUEST_TIMEOUT: '2s' } });
        expect(status.code).not.toBe(0);
        expect(status.stderr).toMatch(
          /the Baton server at \S+ did not answer GET \S+ within 2 s \(BATON_REQUEST_TIMEOUT\): check that `baton serve` runs there/,
        );
        // a command acting on the worktree's workflow waits once: for the question which workflow that is
        const task = await runCli(['task', 'add', 'T9:Document it'], {
          cwd: repo,
          env: { ...env, BATON_REQUEST_TIMEOUT: '2s' },
        });
        expect(task.code).not.toBe(0);
        expect(task.stderr).toMatch(/did not answer GET \/api\/workflows\/current within 2 s/);
        // doctor says so, without waiting for it
        const doctor = await runCli(['doctor'], { cwd: repo, env });
        expect(doctor.stdout).toContain(
          `the Baton server ${s.url} cannot be used: it did not answer its health check within 3 s: check that \`baton serve\` runs there, not stopped or hung`,
        );
        expect(doctor.stdout).toMatch(/UserPromptSubmit.*failed.*did not answer within 1\.5 s/);
      } finally {
        s.child.kill('SIGCONT');
      }
      // answering again: hooks go on as before, and what the hung ones could not record is there from the transcript
      const back = await prompt('ship it');
      expect(back.code).toBe(0);
      expect(back.stderr).not.toMatch(/did not answer|ran out of time/);
      const status = (await runCli(['--json', 'status'], { cwd: repo, env })).json<{
        counts: { requests: number };
      }>();
      expect(status.counts.requests).toBeGreaterThanOrEqual(2);
    } finally {
      await s.stop();
    }
  }, 60_000);

  it('a team PostgreSQL that hangs: one hook waits out its connection timeout, the next ones give it 1.5 s', async () => {
    const repo = makeRepo();
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const env = {
      BATON_HOME: tempDir('baton-home-'),
      HOME: tempDir('baton-user-'),
      BATON_DATABASE_URL: `postgres://baton:secret@127.0.0.1:${port}/baton`,
    };
    const prompt = prompter(repo, env, 'hung-pg-0001');
    try {
      const first = await prompt('add a /health endpoint');
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/PostgreSQL at \S+ did not answer within 5 s \(it took the connection/);
      const second = await prompt('and a test for it');
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(
        /PostgreSQL at \S+ did not answer within 1\.5 s, nor did it answer a hook here at \d\d:\d\d:\d\d UTC: this hook did not wait for it .*; check that it runs and answers/,
      );
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  }, 60_000);
});
