import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClaude } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { spawnWorker } from '../helpers/worker-team.js';

/**
 * `baton run` with a server named (BATON_URL), as a developer of a team has it: every other command goes to the
 * server, but `baton run` drives its agent on a database itself. A database that is not the server's is said before
 * any agent starts, never a "no workflow" that `baton list` contradicts; the server's own database runs as ever.
 */
describe('baton run with BATON_URL set', () => {
  const repo = makeRepo();
  const serverHome = tempDir('baton-server-home-');
  let s: ServerProcess;
  let id = '';

  beforeAll(async () => {
    s = await startServerProcess(serverHome);
    const created = await runCli(['--json', 'create', '--title', 'team work', '--task', 'T1:one'], {
      cwd: repo,
      env: { BATON_HOME: tempDir('baton-dev-home-'), BATON_URL: s.url, BATON_TOKEN: s.token },
    });
    expect(created.code, created.stderr).toBe(0);
    id = created.json<{ id: string }>().id;
  });
  afterAll(async () => s?.stop());

  it("refuses, naming the server's database, when its own database is another one; no agent starts", async () => {
    const log = join(tempDir('fake-log-'), 'launches.ndjson');
    const env = {
      BATON_HOME: tempDir('baton-dev-home-'),
      BATON_URL: s.url,
      BATON_TOKEN: s.token,
      FAKE_LOG: log,
    };
    for (const args of [[], ['-w', id]]) {
      const r = await runCli(['run', ...args, '--agent', 'claude-code', '--agent-bin', fakeClaude], {
        cwd: repo,
        env,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `${id} is on the server ${s.url}, but not in the database \`baton run\` opens`,
      );
      expect(r.stderr).toContain('BATON_DATABASE_URL');
      expect(r.stderr).not.toContain('list them with `baton list`');
    }
    expect(existsSync(log)).toBe(false);
    // the server still shows it as it was
    const st = await runCli(['--json', 'status', '-w', id], {
      cwd: repo,
      env: { BATON_URL: s.url, BATON_TOKEN: s.token },
    });
    expect(st.json<{ workflow: { status: string } }>().workflow.status).toBe('pending');
  });

  it("runs the workflow the server shows when its database is the server's", async () => {
    const r = await runCli(['run', '--agent', 'claude-code', '--agent-bin', fakeClaude], {
      cwd: repo,
      env: { BATON_HOME: serverHome, BATON_URL: s.url, BATON_TOKEN: s.token },
    });
    expect(r.code, r.stderr).toBe(0);
    const st = await runCli(['--json', 'status', '-w', id], {
      cwd: repo,
      env: { BATON_URL: s.url, BATON_TOKEN: s.token },
    });
    expect(st.json<{ workflow: { status: string } }>().workflow.status).toBe('completed');
  });

  it("`baton executors list` lists the server's executors, through its API with its token", async () => {
    const here = makeRepo();
    const server = { BATON_URL: s.url, BATON_TOKEN: s.token };
    const made = await runCli(['--json', 'create', '--title', 'one agent', '--task', 'T1:one'], {
      cwd: here,
      env: server,
    });
    const wf = made.json<{ id: string }>().id;
    // an agent run on the server's database leaves its executor row there
    const run = await runCli(['run', '--agent', 'claude-code', '--agent-bin', fakeClaude], {
      cwd: here,
      env: { BATON_HOME: serverHome, BATON_URL: undefined },
    });
    expect(run.code, run.stderr).toBe(0);
    // a developer's machine: its own BATON_HOME holds no database of the server's
    const dev = { ...server, BATON_HOME: tempDir('baton-dev-home-') };
    const listed = await runCli(['--json', 'executors', 'list'], { cwd: here, env: dev });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.json<{ workflow_id: string; runtime: string; agent: string }[]>();
    expect(rows.filter((r) => r.workflow_id === wf)).toMatchObject([
      { runtime: 'local', agent: 'claude-code' },
    ]);
    const text = await runCli(['executors', 'list'], { cwd: here, env: dev });
    expect(text.stdout).toContain(`${wf}#1 local`);
    expect(existsSync(join(dev.BATON_HOME, 'baton.db'))).toBe(false);
    // the route asks for the token as every other does
    expect((await s.api('/api/executors', { auth: false })).status).toBe(401);
    const wrong = await runCli(['executors', 'list'], { cwd: here, env: { ...dev, BATON_TOKEN: 'wrong' } });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('BATON_TOKEN');
  });

  it('refuses a worker whose database does not hold the work the server queues, before it starts', async () => {
    const server = { BATON_URL: s.url, BATON_TOKEN: s.token };
    const made = await runCli(['--json', 'create', '--title', 'queued work', '--task', 'T1:one'], {
      cwd: repo,
      env: server,
    });
    const queuedId = made.json<{ id: string }>().id;
    const queued = await runCli(['submit', '-w', queuedId, '--label', 'team', '--agent', 'claude-code'], {
      cwd: repo,
      env: server,
    });
    expect(queued.code, queued.stderr).toBe(0);
    const r = await runCli(
      ['worker', '--label', 'team', '--agent', 'claude-code', '--agent-bin', fakeClaude],
      {
        cwd: repo,
        env: { ...server, BATON_HOME: tempDir('baton-dev-home-') },
      },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `the server ${s.url} queues ${queuedId}, which are not in the database this worker opens`,
    );
    expect(r.stderr).toContain('`baton serve --worker`');
  });

  it('starts a worker when the server does not answer, noting where it takes work from', async () => {
    const db = join(tempDir('baton-worker-db-'), 'baton.db');
    const w = spawnWorker(db, ['--label', 'team', '--agent', 'claude-code', '--agent-bin', fakeClaude], {
      BATON_URL: 'http://127.0.0.1:9',
    });
    try {
      await until('the worker to start', () => w.lines().some((l) => l.event === 'worker.started'));
      expect(w.out.stderr).toContain(
        `note: \`baton worker\` takes work from the database it opens (${db}), not through the server http://127.0.0.1:9, which did not answer`,
      );
    } finally {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  });
});
