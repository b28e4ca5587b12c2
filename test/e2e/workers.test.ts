import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClaude } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';
import { startServerProcess } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import {
  agentRuns,
  fakeLogIn,
  readTeam,
  spawnBaton,
  spawnWorker,
  teamWork,
  type WorkerProcess,
} from '../helpers/worker-team.js';

const started: WorkerProcess[] = [];
let server: TestServer | null = null;
afterEach(async () => {
  for (const w of started.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await w.exited;
  }
  await server?.close();
  server = null;
});
const worker = (...a: Parameters<typeof spawnWorker>) => {
  const w = spawnWorker(...a);
  started.push(w);
  return w;
};

describe('baton submit and the queue (CLI and REST)', () => {
  it('submit queues the workflow with its profile; bad input and ended workflows are refused', async () => {
    const db = join(tempDir('baton-queue-'), 'baton.db');
    const team = await teamWork(db, 2);
    const [one, two] = team.items as [{ id: string; repo: string }, { id: string; repo: string }];
    const none = await runCli(['submit'], { cwd: one.repo, env: team.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--agent NAME');
    // A profile no worker could run is refused, naming the profiles there are (the workflow's baton.config.json's
    // too), and nothing is queued.
    const unknown = await team.submit(one, ['--agent', 'nosuch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'unknown agent nosuch: the agent profiles are claude-code, codex, command;',
    );
    const config = join(one.repo, 'baton.config.json');
    writeFileSync(config, JSON.stringify({ agents: { small: { adapter: 'claude-code' } } }));
    expect((await team.submit(one, ['--agent', 'nosuch'])).stderr).toContain(
      'the agent profiles are claude-code, codex, command, small;',
    );
    rmSync(config);
    expect((await runCli(['--json', 'queue'], { cwd: one.repo, env: team.env })).json()).toEqual({
      entries: [],
    });
    // a worktree not on this machine has its profiles where the workers are: they judge the name, not the submitter
    const away = `${two.repo}-away`;
    renameSync(two.repo, away);
    const elsewhere = await runCli(['--json', 'submit', '-w', two.id, '--agent', 'nosuch'], {
      cwd: tempDir(),
      env: team.env,
    });
    renameSync(away, two.repo);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.json()).toMatchObject({ workflow_id: two.id, profile: { agent: 'nosuch' } });
    const bad = await team.submit(one, ['--priority', '5000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--priority must be a whole number from -1000 to 1000');
    const ok = await team.submit(one, ['--priority', '7', '--label', 'gpu', '--max-sessions', '3']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json()).toMatchObject({
      workflow_id: one.id,
      state: 'queued',
      priority: 7,
      label: 'gpu',
      worktree: one.repo,
      profile: { agent: 'claude-code', agent_bin: fakeClaude, max_sessions: 3, context_window: null },
      attempts: 0,
    });
    // A person who submits is told which running worker takes it and how to start one: by its label, else by its place.
    const human = (item: { repo: string }, args: string[]) =>
      runCli(['submit', '--agent', 'claude-code', '--agent-bin', fakeClaude, ...args], {
        cwd: item.repo,
        env: team.env,
      });
    const labelled = (await human(one, ['--priority', '7', '--label', 'gpu', '--max-sessions', '3'])).stdout;
    expect(labelled).toContain('`baton serve --worker` started with --label gpu takes it');
    expect(labelled).toContain('else start a worker: baton worker --label gpu');
    expect((await human(two, [])).stdout).toContain(
      `start a worker: baton worker --worktree-root ${dirname(two.repo)}`,
    );
    const q = (await runCli(['--json', 'queue'], { cwd: one.repo, env: team.env })).json<{
      entries: { workflow_id: string }[];
    }>();
    expect(q.entries.map((e) => e.workflow_id)).toEqual([one.id, two.id]);
    const listed = await runCli(['queue'], { cwd: one.repo, env: team.env });
    expect(listed.stdout).toContain(`${one.id}  queued`);
    const abandoned = await runCli(['abandon', '-w', two.id], { cwd: two.repo, env: team.env });
    expect(abandoned.code, abandoned.stderr).toBe(0);
    const ended = await team.submit(two, ['-w', two.id]);
    expect(ended.code).toBe(3);
    expect(ended.stderr).toContain('nothing left for a worker to run');
    // A worker must be told what it can reach.
    const blind = await runCli(['worker'], { cwd: one.repo, env: team.env });
    expect(blind.code).toBe(2);
    expect(blind.stderr).toContain('--worktree-root DIR');
    const zero = await runCli(['worker', '--label', 'x', '--concurrency', '0'], {
      cwd: one.repo,
      env: team.env,
    });
    expect(zero.code).toBe(2);
    const nowhere = await runCli(['worker', '--worktree-root', '/nonexistent-root'], {
      cwd: one.repo,
      env: team.env,
    });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('worktree roots "/nonexistent-root" does not exist on this machine');
    // of several, the one missing is named
    const several = await runCli(
      ['worker', '--worktree-root', one.repo, '--worktree-root', '/nonexistent-root'],
      {
        cwd: one.repo,
        env: team.env,
      },
    );
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('names /nonexistent-root, which does not exist on this machine');
    const hasty = await runCli(['worker', '--label', 'x', '--poll', '1ms'], { cwd: one.repo, env: team.env });
    expect(hasty.code).toBe(2);
    expect(hasty.stderr).toContain('must be at least 50ms');
    expect(zero.stderr).toContain(
      'concurrency "0" must be a whole number from 1 to 256 (option --concurrency, variable BATON_WORKER_CONCURRENCY)',
    );
    // A workflow a person paused is theirs until they resume it.
    expect((await runCli(['task', 'start', 'T1', '-w', one.id], { cwd: one.repo, env: team.env })).code).toBe(
      0,
    );
    const pause = await runCli(['pause', '--force', '-w', one.id, '--reason', 'lunch'], {
      cwd: one.repo,
      env: team.env,
    });
    expect(pause.code, pause.stderr).toBe(0);
    const held = await team.submit(one, ['-w', one.id]);
    expect(held.code).toBe(3);
    expect(held.stderr).toContain(`workflow ${one.id} is paused (lunch): resume it, then submit it`);
  });

  it('REST: POST /api/workflows/{id}/submit and GET /api/queue, in the OpenAPI document', async () => {
    server = await startTestServer();
    const repo = makeRepo();
    const created = await server.api('/api/workflows', {
      method: 'POST',
      json: { title: 'Queued over HTTP', worktree: repo, tasks: [{ id: 'T1', title: 'One' }] },
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const bad = await server.api(`/api/workflows/${id}/submit`, {
      method: 'POST',
      json: { agent: 'codex', nope: 1 },
    });
    expect(bad.status).toBe(400);
    const noAgent = await server.api(`/api/workflows/${id}/submit`, {
      method: 'POST',
      json: { priority: 1 },
    });
    expect(noAgent.status).toBe(400);
    expect(await noAgent.text()).toContain('--agent NAME');
    const res = await server.api(`/api/workflows/${id}/submit`, {
      method: 'POST',
      json: { agent: 'codex', priority: -3 },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      workflow_id: id,
      state: 'queued',
      priority: -3,
      worktree: repo,
    });
    const q = (await (await server.api('/api/queue')).json()) as { entries: { workflow_id: string }[] };
    expect(q.entries.map((e) => e.workflow_id)).toEqual([id]);
    const doc = (await (await server.api('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/workflows/{id}/submit', '/api/queue']),
    );
  });
});

describe('baton submit through a server (BATON_URL)', () => {
  it('the CLI submits and reads the queue over HTTP exactly as it does locally', async () => {
    const db = join(tempDir('baton-queue-http-'), 'baton.db');
    const team = await teamWork(db, 1);
    const item = team.items[0]!;
    const srv = await startServerProcess(tempDir('baton-serve-home-'), { env: { BATON_DATABASE_URL: db } });
    try {
      const env = { ...team.env, BATON_URL: srv.url, BATON_TOKEN: srv.token };
      const none = await runCli(['submit'], { cwd: item.repo, env });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('--agent NAME');
      const ok = await runCli(['--json', 'submit', '--agent', 'codex', '--label', 'mac'], {
        cwd: item.repo,
        env,
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.json()).toMatchObject({
        workflow_id: item.id,
        priority: 0,
        label: 'mac',
        profile: { agent: 'codex' },
      });
      const q = await runCli(['--json', 'queue'], { cwd: item.repo, env });
      expect(q.json<{ entries: { workflow_id: string }[] }>().entries.map((e) => e.workflow_id)).toEqual([
        item.id,
      ]);
    } finally {
      await srv.stop();
    }
  });
});

describe('baton worker on SQLite', () => {
  it('takes only work it can reach; SIGTERM pauses at the task boundary and releases it; another worker finishes it', async () => {
    const db = join(tempDir('baton-workers-'), 'baton.db');
    const team = await teamWork(db, 1);
    const item = team.items[0]!;
    const log = fakeLogIn(team.home);
    // the first task waits at the gate until the worker has been told to stop: the stop surely lands mid-task
    const gate = join(team.home, 'gate');
    const env = { FAKE_DELAY_MS: '150', FAKE_LOG: log, FAKE_GATE: gate };
    const fast = ['--poll', '100ms', '--lease-ttl', '3s'];
    const elsewhere = worker(
      db,
      ['--worktree-root', tempDir('baton-elsewhere-'), '--label', 'gpu', ...fast],
      env,
    );
    await until('the first worker to start', () =>
      elsewhere.lines().some((l) => l.event === 'worker.started'),
    );
    expect((await team.submit(item, [])).code).toBe(0);
    const here = worker(db, ['--worktree-root', dirname(item.repo), ...fast], env);
    await until('the reaching worker to start a task', () =>
      here.lines().some((l) => l.event === 'task.started' && l.workflow_id === item.id),
    );
    // While a worker runs it, submitting it again is refused: the run goes on with the profile it was claimed with.
    const again = await team.submit(item, ['--agent', 'codex', '--priority', '9']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`workflow ${item.id} is running on the worker`);
    const running = await runCli(['--json', 'queue'], { cwd: item.repo, env: team.env });
    expect(running.json<{ entries: { workflow_id: string; running: boolean }[] }>().entries).toMatchObject([
      { workflow_id: item.id, state: 'queued', running: true },
    ]);
    expect((await runCli(['queue'], { cwd: item.repo, env: team.env })).stdout).toContain(
      `${item.id}  running`,
    );
    here.child.kill('SIGTERM');
    await until('the worker to say it stops', () => here.lines().some((l) => l.event === 'worker.stopping'));
    writeFileSync(gate, 'open');
    expect(await here.exited).toBe(0);
    await here.closed;
    const lines = here.lines();
    expect(lines.find((l) => l.event === 'work.finished')).toMatchObject({
      workflow_id: item.id,
      status: 'paused',
      done: false,
    });
    // The task in progress finished first: a boundary, not an interruption.
    expect(lines.filter((l) => l.event === 'task.finished').map((l) => l.outcome)).toEqual(['done']);
    const mid = (await readTeam(db, [item.id]))[item.id]!;
    expect(mid.status).toBe('paused');
    // The worker that cannot reach it never took it; one that can goes on from the pause.
    expect(elsewhere.lines().some((l) => l.event === 'work.claimed')).toBe(false);
    const next = worker(db, ['--worktree-root', dirname(item.repo), ...fast], env);
    await until(
      'the workflow to complete',
      async () => (await readTeam(db, [item.id]))[item.id]!.status === 'completed',
    );
    await until('the queue entry to be done', () =>
      next.lines().some((l) => l.event === 'work.finished' && l.done),
    );
    // with the worker's own outcome: its end, reached while it ran it, is not one outside the queue
    const done = await runCli(['--json', 'queue'], { cwd: item.repo, env: team.env });
    expect(done.json<{ entries: { workflow_id: string; outcome: string | null }[] }>().entries).toMatchObject(
      [{ workflow_id: item.id, state: 'done', outcome: 'completed' }],
    );
    expect(elsewhere.lines().some((l) => l.event === 'work.claimed')).toBe(false);
    // Each task ran exactly once.
    const runs = agentRuns(log);
    expect(['T1', 'T2', 'T3'].map((t) => runs.filter((r) => r.task === t).length)).toEqual([1, 1, 1]);
  });

  it('a person pauses work a worker runs, then resumes it: queued again, and a worker goes on with it', async () => {
    const db = join(tempDir('baton-workers-pause-'), 'baton.db');
    const team = await teamWork(db, 1);
    const item = team.items[0]!;
    const gate = join(team.home, 'gate');
    const env = { FAKE_DELAY_MS: '50', FAKE_GATE: gate };
    expect((await team.submit(item, [])).code).toBe(0);
    const w = worker(db, ['--worktree-root', dirname(item.repo), '--poll', '100ms'], env);
    await until('a task under way', () =>
      w.lines().some((l) => l.event === 'task.started' && l.workflow_id === item.id),
    );
    const cli = (...args: string[]) => runCli(args, { cwd: item.repo, env: team.env });
    expect((await cli('pause', '--reason', 'lunch')).code).toBe(0);
    writeFileSync(gate, 'open');
    await until('the worker to leave it paused', () =>
      w.lines().some((l) => l.event === 'work.finished' && l.workflow_id === item.id && l.done),
    );
    // a driver's own resume (here `baton run`, stopped at once by its max duration) does not queue it again: it drives
    const driven = await runCli(
      ['run', '--agent', 'claude-code', '--agent-bin', fakeClaude, '--max-tasks', '1'],
      {
        cwd: item.repo,
        env: { ...team.env, FAKE_DELAY_MS: '20' },
      },
    );
    expect(driven.code, driven.stderr).toBe(0);
    expect((await cli('--json', 'queue')).json<{ entries: { state: string }[] }>().entries[0]?.state).toBe(
      'done',
    );
    expect((await cli('pause', '--reason', 'lunch again')).code).toBe(0);
    const resumed = await cli('resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('queued again: the worker that ran it before the pause goes on with it');
    await until(
      'the workflow to complete',
      async () => (await readTeam(db, [item.id]))[item.id]!.status === 'completed',
      60_000,
    );
  });

  it('baton serve --worker runs queued work beside the API, and drains on SIGTERM', async () => {
    const db = join(tempDir('baton-serve-worker-'), 'baton.db');
    const team = await teamWork(db, 1);
    const item = team.items[0]!;
    expect((await team.submit(item, [])).code).toBe(0);
    const serve = spawnBaton(
      db,
      ['serve', '--port', '0', '--worker', '--worktree-root', dirname(item.repo), '--poll', '100ms'],
      { FAKE_DELAY_MS: '20' },
    );
    started.push(serve);
    await until(
      'the served worker to finish the workflow',
      () => serve.out.stderr.includes(`worker: finished ${item.id}: completed`),
      60_000,
    );
    expect((await readTeam(db, [item.id]))[item.id]!.status).toBe('completed');
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    await serve.closed;
    expect(serve.out.stderr).toContain('worker: stopped: every lease released');
  });

  it('a serve --worker killed mid-task: restarted, its own worker takes the workflow over (resumed once), then the rest of the queue', async () => {
    const db = join(tempDir('baton-serve-worker-kill-'), 'baton.db');
    const team = await teamWork(db, 2);
    const [first, second] = team.items as [{ id: string; repo: string }, { id: string; repo: string }];
    for (const item of [first, second]) expect((await team.submit(item, [])).code).toBe(0);
    const args = [
      'serve',
      '--port',
      '0',
      '--worker',
      '--worktree-root',
      dirname(first.repo),
      '--poll',
      '100ms',
    ];
    const killed = spawnBaton(db, args, { FAKE_HANG_MS: '60000' });
    started.push(killed);
    await until('a task under way', () => killed.out.stderr.includes(`${first.id}: started T1`), 60_000);
    killed.child.kill('SIGKILL');
    await killed.exited;
    const serve = spawnBaton(db, args, { FAKE_DELAY_MS: '20' });
    started.push(serve);
    await until(
      'both workflows finished',
      () => serve.out.stderr.includes(`finished ${second.id}: completed`),
      90_000,
    );
    const team2 = await readTeam(db, [first.id, second.id]);
    expect([team2[first.id]!.status, team2[second.id]!.status]).toEqual(['completed', 'completed']);
    const log = serve.out.stderr;
    expect(log).toContain(`${first.id} is queued: this server's worker continues it`);
    // one driver, one claim each: no refusal of itself, no claims again and again
    expect(log).not.toContain('already has a driver');
    expect(log.match(/worker: claimed /g)?.length).toBe(2);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });
});
