import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { batonBin, runCli } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { holdWriteLock, releaseLocks } from '../helpers/sqlite-lock.js';

// Another program holds the SQLite database's write lock (a `sqlite3` shell with a transaction open, a long import):
// a command that only reads answers at once; one that writes says, after a second and a half, that it waits, and,
// once its wait runs out, what holds it up, having written nothing.

afterEach(releaseLocks);

/** The CLI as a child process, with when (ms after its start) each line of its standard error came, and its end. */
function timedCli(args: string[], opts: { cwd: string; env: Record<string, string> }) {
  const started = Date.now();
  const child = spawn(process.execPath, [batonBin, ...args], {
    cwd: opts.cwd,
    env: hermeticEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: { line: string; at: number }[] = [];
  let partial = '';
  child.stderr.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) lines.push({ line, at: Date.now() - started });
  });
  return new Promise<{ code: number; stderr: typeof lines; took: number }>((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stderr: lines, took: Date.now() - started })),
  );
}

describe('a SQLite database another process holds locked', () => {
  it('is read at once; a write says it waits, then what holds it up and what to do', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    expect((await baton('create', '--title', 'Add greet', '--task', 'A:one')).code).toBe(0);
    const path = join(env.BATON_HOME, 'baton.db');
    await holdWriteLock(path);

    const started = Date.now();
    const status = await baton('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Add greet');
    expect((await baton('list')).stdout).toContain('Add greet');
    // without waiting for the lock (the wait for a write is 10 s)
    expect(Date.now() - started).toBeLessThan(8000);

    // an event commit and a write of the work queue, side by side
    const [add, submit] = await Promise.all([
      timedCli(['task', 'add', 'B:two'], { cwd: repo, env }),
      timedCli(['submit', '--agent', 'claude-code'], { cwd: repo, env }),
    ]);
    for (const run of [add, submit]) {
      expect(run.code).toBe(1);
      const [waiting, failed, ...more] = run.stderr;
      expect(waiting!.line).toBe(
        `baton: waiting for the write lock on ${path} (held by another process) for up to 9 s more ...`,
      );
      // said while it waits, not at its end
      expect(waiting!.at).toBeGreaterThan(1000);
      expect(waiting!.at).toBeLessThan(run.took - 5000);
      expect(failed!.line).toContain(
        `baton: cannot write to the SQLite database ${path}: database is locked: another process kept it locked all the time this one waited`,
      );
      expect(failed!.line).toContain(
        `(\`lsof ${path}\` names the processes that have it open), then try again`,
      );
      expect(more).toEqual([]);
    }

    releaseLocks();
    const shown = await baton('show', '--json');
    expect(shown.code, shown.stderr).toBe(0);
    // neither write left anything behind: the task was not added, nothing was queued
    expect(
      shown.json<{ workflow: { tasks: { title: string }[] } }>().workflow.tasks.map((t) => t.title),
    ).toEqual(['one']);
    expect((await baton('queue')).stdout).toContain('the queue is empty');
  });
});
