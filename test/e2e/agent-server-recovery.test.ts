import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { batonBin } from '../helpers/cli.js';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { tempDir } from '../helpers/git-repo.js';

/** Whether the agent of the n-th launch has reported work (a history line after that launch): it is mid-task. */
const recordedAfterLaunch = (evs: { type: string }[], n: number) => {
  const launches = evs.flatMap((e, i) => (e.type === 'agent.launched' ? [i] : []));
  const at = launches[n - 1];
  return at !== undefined && evs.slice(at + 1).some((e) => e.type === 'history.recorded');
};

const setup = () => agentWorkspace({ BATON_AGENT_BIN: fakeClaude });

const children: ChildProcess[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

const spawnBaton = (args: string[], cwd: string, env: Record<string, string>) => {
  const child = spawn(process.execPath, [batonBin, ...args], {
    cwd,
    env: hermeticEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
};

const killHard = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
};

/** Whether a writer could take the SQLite database's write lock now (no process holds it). */
function writable(path: string): boolean {
  const db = new Database(path, { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

describe('the agent runtime across Baton crashes and restarts', () => {
  it('startup recovery in baton serve: a SIGKILLed server mid-task is recovered and resumed by the next one', async () => {
    const { cli, repo, home, env, count, events, create } = setup();
    const created = await create();
    expect(created.code).toBe(0);
    const id = created.json<{ id: string }>().id;
    const agentEnv = { ...env, FAKE_DELAY_MS: '300' };
    // A controller drives the agent, and dies mid-task.
    const runner = spawnBaton(['run', '--agent', 'claude-code', '--heartbeat', '200ms'], repo, agentEnv);
    await until('the first agent mid-task', () => count('agent.token_saved') >= 1);
    await killHard(runner);
    // Server A: startup recovery before ready, then it resumes the session and drives the agent itself.
    const serveArgs = ['--auto-resume', 'all', '--agent', 'claude-code', '--heartbeat', '200ms'];
    const a = await startServerProcess(home, { args: serveArgs, env: agentEnv, cwd: repo });
    servers.push(a);
    expect((await a.api('/readyz')).status).toBe(200);
    expect(count('workflow.interrupted')).toBe(1);
    // (A resumed agent keeps its session id, so no new token event: wait for the launch, then into the task.)
    await until('server A driving the agent into the task', () => recordedAfterLaunch(events(), 2));
    // its new session closed the first one's row (left ready by the crash): only the running session reads open
    type Row = { session_number: number; status: string; session_state: string };
    const rows = (await cli(['executors', 'list'])).json<Row[]>();
    expect(rows.find((r) => r.session_number === 1)).toMatchObject({
      status: 'stopped',
      session_state: 'ended',
    });
    expect(rows.filter((r) => r.status === 'ready' || r.status === 'starting')).toHaveLength(1);
    await killHard(a.child);
    servers.splice(servers.indexOf(a), 1);
    // Server B, started plainly (no --agent, as for the dashboard): its startup recovery finds the dead server's
    // session (no command noticed it first: one that had would leave the workflow to `baton run -w`), resumes it with
    // the agent the session ran, says so, and finishes the workflow.
    const b = await startServerProcess(home, {
      args: ['--auto-resume', 'all', '--heartbeat', '200ms'],
      env: agentEnv,
      cwd: repo,
    });
    servers.push(b);
    await until('the workflow completed', () => count('workflow.completed') === 1, 60_000);
    await until('the server to say the outcome', () => b.stderr().includes(`${id}: completed`), 10_000);
    expect(b.stderr()).toMatch(new RegExp(`resuming ${id} \\(session \\d+\\) with claude-code`));
    // resumed once, never a second driver refused
    expect(b.stderr().match(new RegExp(`resuming ${id} `, 'g'))).toHaveLength(1);
    expect(b.stderr()).not.toContain(`auto-resume of ${id} failed`);
    const evs = events();
    const interrupted = evs.filter((e) => e.type === 'workflow.interrupted');
    expect(interrupted).toHaveLength(2);
    for (const e of interrupted) {
      const rec = e.data.recovery as { detected_by: string; last_known_state: { task: string | null } };
      expect(['startup_recovery', 'lease']).toContain(rec.detected_by);
      expect(rec.last_known_state.task).toMatch(/^T[123]$/);
    }
    const crashSnaps = evs.filter(
      (e) => e.type === 'snapshot.taken' && (e.data.snapshot as { trigger: string }).trigger === 'crash',
    );
    expect(crashSnaps).toHaveLength(2);
    // what the servers did on their own (startup recovery, the runs they resumed) is Baton's, as `baton run`'s is;
    // a person's command (create) is the user's
    const atStartup = evs.find(
      (e) =>
        e.type === 'workflow.interrupted' &&
        (e.data.recovery as { detected_by: string }).detected_by === 'startup_recovery',
    );
    expect(atStartup?.actor).toBe('baton');
    const driving = evs
      .slice(evs.indexOf(atStartup!))
      .filter((e) =>
        [
          'workflow.resumed',
          'session.started',
          'task.started',
          'task.completed',
          'workflow.completed',
        ].includes(e.type),
      );
    expect(driving.length).toBeGreaterThan(3);
    expect(new Set(driving.map((e) => e.actor))).toEqual(new Set(['baton']));
    expect(evs.filter((e) => e.type === 'executor.changed').length).toBeGreaterThanOrEqual(2);
    expect(evs.filter((e) => e.type === 'task.completed').length).toBe(3);
    // WebSocket subscribers see recovery's events: they are in the log the server streams.
    const ws = new WebSocket(`${b.url.replace(/^http/, 'ws')}/ws?since=0&token=${b.token}`);
    const seen: string[] = [];
    ws.on('message', (m) => seen.push((JSON.parse(String(m)) as { type: string }).type));
    try {
      await until(
        'the recovery events on the WebSocket',
        () => {
          return (
            seen.filter((t) => t === 'workflow.interrupted').length === 2 &&
            seen.includes('workflow.completed')
          );
        },
        10_000,
      );
      expect(seen).toContain('executor.changed');
    } finally {
      ws.close();
    }
  }, 120_000);

  it('a server whose agent binary is missing leaves a crashed run as it is, says how to go on, and fails no task', async () => {
    const { cli, repo, home, env, count, create } = setup();
    const id = (await create()).json<{ id: string }>().id;
    const agentEnv = { ...env, FAKE_DELAY_MS: '300' };
    const runner = spawnBaton(['run', '--agent', 'claude-code', '--heartbeat', '200ms'], repo, agentEnv);
    await until('the first agent mid-task', () => count('agent.token_saved') >= 1);
    await killHard(runner);
    const missing = '/nonexistent/bin/claude';
    const a = await startServerProcess(home, {
      args: ['--auto-resume', 'all', '--agent', 'claude-code', '--heartbeat', '200ms'],
      env: { ...agentEnv, BATON_AGENT_BIN: missing },
      cwd: repo,
    });
    servers.push(a);
    await until('the server to say it', () => a.stderr().includes(`${id} can resume`), 10_000);
    expect(a.stderr()).toContain(
      `${id} can resume, but its agent cannot start here: ${missing} was not found (spawn ${missing} ENOENT); start \`baton serve --agent-bin <path>\``,
    );
    const status = (await cli(['status'])).json<{
      workflow: { status: string };
      tasks: { status: string }[];
    }>();
    expect(status.workflow.status).toBe('interrupted');
    expect(status.tasks.map((t) => t.status)).not.toContain('failed');
    expect(count('agent.launched')).toBe(1);
  }, 60_000);

  it('a server given no --agent-bin resumes a `command` agent with the program its run was given', async () => {
    const { repo, home, env, count, create } = agentWorkspace();
    const id = (await create()).json<{ id: string }>().id;
    const script = join(tempDir('baton-cmd-'), 'agent.sh');
    writeFileSync(script, '#!/bin/sh\nwc -c > /dev/null\nsleep 2\necho done\n');
    chmodSync(script, 0o755);
    const runArgs = ['run', '--agent', 'command', '--agent-bin', script, '--heartbeat', '200ms'];
    const runner = spawnBaton(runArgs, repo, env);
    await until('the first agent started', () => count('agent.launched') >= 1);
    await killHard(runner);
    const a = await startServerProcess(home, {
      args: ['--auto-resume', 'all', '--heartbeat', '200ms'],
      env,
      cwd: repo,
    });
    servers.push(a);
    await until('the workflow completed', () => count('workflow.completed') === 1, 60_000);
    expect(a.stderr()).toMatch(new RegExp(`resuming ${id} \\(session \\d+\\) with command`));
    expect(a.stderr()).not.toContain('can resume, but');
  }, 90_000);

  it("a crash a command noticed stops the dead agent's row; a server never resumes a workflow abandoned since", async () => {
    const { cli, repo, home, env, count, create } = setup();
    const id = (await create()).json<{ id: string }>().id;
    const agentEnv = { ...env, FAKE_DELAY_MS: '300' };
    type Row = { session_number: number; status: string; session_state: string };
    const rowOf = async (session: number) =>
      (await cli(['executors', 'list'])).json<Row[]>().find((r) => r.session_number === session);
    // a run killed mid-task, noticed by the next command: its agent is gone, and its row says so
    const first = spawnBaton(['run', '--agent', 'claude-code', '--heartbeat', '200ms'], repo, agentEnv);
    await until('the first agent mid-task', () => count('agent.token_saved') >= 1);
    await killHard(first);
    expect((await cli(['status'])).json<{ workflow: { status: string } }>().workflow.status).toBe(
      'interrupted',
    );
    expect(await rowOf(1)).toMatchObject({ status: 'stopped', session_state: 'waiting_for_input' });
    // the next run, killed too, is recovered by a server that resumes nothing: its row is left for a later server
    const second = spawnBaton(['run', '--agent', 'claude-code', '--heartbeat', '200ms'], repo, agentEnv);
    await until(
      'the second agent mid-task',
      () => count('agent.launched') >= 2 && count('usage.recorded') >= 2,
    );
    await killHard(second);
    const a = await startServerProcess(home, { args: ['--auto-resume', 'none'], env: agentEnv, cwd: repo });
    servers.push(a);
    expect(await rowOf(2)).toMatchObject({ status: 'ready', session_state: 'waiting_for_input' });
    await a.stop();
    servers.splice(servers.indexOf(a), 1);
    expect((await cli(['abandon', '-w', id])).code).toBe(0);
    // abandoned since: the next server's recovery ends its session and resumes nothing, nor says it does
    const launched = count('agent.launched');
    const b = await startServerProcess(home, { env: agentEnv, cwd: repo });
    servers.push(b);
    expect(await rowOf(2)).toMatchObject({ status: 'stopped', session_state: 'ended' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(b.stderr()).not.toContain(`resuming ${id}`);
    expect(count('agent.launched')).toBe(launched);
  }, 60_000);

  it('a server names a workflow a signal interrupted before it started, with the command that goes on', async () => {
    const { cli, repo, home, env, count, create } = setup();
    const id = (await create()).json<{ id: string }>().id;
    const runner = spawnBaton(['run', '--agent', 'claude-code'], repo, { ...env, FAKE_DELAY_MS: '300' });
    await until('the first agent mid-task', () => count('agent.token_saved') >= 1);
    const gone = new Promise((r) => runner.once('exit', r));
    runner.kill('SIGTERM');
    await gone;
    expect((await cli(['status'])).json<{ workflow: { status: string } }>().workflow.status).toBe(
      'interrupted',
    );
    const a = await startServerProcess(home, { env, cwd: repo });
    servers.push(a);
    await until('the server to name it', () =>
      a.stderr().includes(`${id} was interrupted before this server started`),
    );
    expect(a.stderr()).toContain(`continue with \`baton run -w ${id}`);
  }, 60_000);

  it('the heartbeat monitor interrupts a session whose controller went silent (SIGSTOP)', async () => {
    const { cli, repo, home, env, count, events, create } = setup();
    await create();
    const s = await startServerProcess(home, {
      args: ['--auto-resume', 'none', '--heartbeat-timeout', '1s'],
      env,
      cwd: repo,
    });
    servers.push(s);
    const runner = spawnBaton(['run', '--agent', 'claude-code', '--heartbeat', '200ms'], repo, {
      ...env,
      FAKE_DELAY_MS: '1500',
    });
    // stopped between two of the agent's lines (1.5 s apart), once its first report (the context) is recorded: a
    // driver stopped inside a write would hold the database's write lock, and no one could record the interruption
    await until('the agent mid-task', () => count('agent.token_saved') >= 1);
    const ex = (await cli(['executors', 'list'])).json<{ pid: number; session_state: string }[]>()[0];
    expect(ex?.session_state).toBe('running');
    await until('its context recorded', () => count('usage.recorded') >= 1);
    // stopped outside a write: stopped inside one (a heartbeat every 200 ms), it would hold the write lock for good
    for (let tries = 0; ; tries++) {
      runner.kill('SIGSTOP');
      if (writable(join(home, 'baton.db')) || tries >= 50) break;
      runner.kill('SIGCONT');
      await new Promise((r) => setTimeout(r, 20));
    }
    try {
      await until('the workflow interrupted', () => count('workflow.interrupted') >= 1, 15_000).catch(
        (e: Error) => {
          throw new Error(`${e.message}\n${s.report()}`);
        },
      );
    } finally {
      await killHard(runner);
    }
    const evs = events();
    const e = evs.find((x) => x.type === 'workflow.interrupted');
    const rec = e?.data.recovery as {
      detected_by: string;
      last_heartbeat: string;
      last_known_state: { task: string };
      actions_since_checkpoint: number | null;
    };
    expect(rec.detected_by).toBe('heartbeat');
    expect(rec.last_heartbeat).toBeTruthy();
    expect(rec.last_known_state.task).toBe('T1');
    expect(String(e?.data.reason)).toContain('heartbeat_timeout');
    expect(
      evs.some(
        (x) => x.type === 'snapshot.taken' && (x.data.snapshot as { trigger: string }).trigger === 'crash',
      ),
    ).toBe(true);
    const row = (await cli(['executors', 'list'])).json<
      { session_state: string; error_message: string }[]
    >()[0];
    expect(row?.session_state).toBe('waiting_for_input');
    expect(row?.error_message).toContain('heartbeat_timeout');
    // The orphaned agent was stopped (its pid no longer runs).
    await until(
      'the agent process gone',
      () => {
        try {
          process.kill(ex?.pid ?? 0, 0);
          return false;
        } catch {
          return true;
        }
      },
      5_000,
    );
    const status = (await cli(['status'])).json<{ workflow: { status: string } }>();
    expect(status.workflow.status).toBe('interrupted');
  }, 60_000);
  it('a remote executor keeps its agent alive across Baton restarts, and each new server re-attaches to it', async () => {
    const { cli, repo, home, env, count, events, create } = setup();
    await create();
    const agentEnv = { ...env, FAKE_DELAY_MS: '300' };
    // The agent host: a separate process that outlives every Baton controller and server.
    const daemon = spawnBaton(['executor', 'serve', '--port', '0'], repo, agentEnv);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      daemon.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      daemon.once('exit', (c) => reject(new Error(`executor serve exited with ${c}`)));
    });
    const remote = ['--executor', 'remote', '--executor-url', url];
    const runner = spawnBaton(
      ['run', '--agent', 'claude-code', '--heartbeat', '200ms', ...remote],
      repo,
      agentEnv,
    );
    await until('the agent running on the executor', () => count('agent.token_saved') >= 1);
    await killHard(runner);
    const serveArgs = [
      '--auto-resume',
      'waiting',
      '--agent',
      'claude-code',
      '--heartbeat',
      '200ms',
      ...remote,
    ];
    const a = await startServerProcess(home, { args: serveArgs, env: agentEnv, cwd: repo });
    servers.push(a);
    await until('server A driving the next task on the executor', () => recordedAfterLaunch(events(), 2));
    await killHard(a.child);
    servers.splice(servers.indexOf(a), 1);
    const b = await startServerProcess(home, { args: serveArgs, env: agentEnv, cwd: repo });
    servers.push(b);
    await until('the workflow completed', () => count('workflow.completed') === 1, 60_000);
    const evs = events();
    // Never interrupted, never relaunched: one launch per task, the runs followed across both restarts.
    expect(evs.filter((e) => e.type === 'workflow.interrupted')).toHaveLength(0);
    expect(evs.filter((e) => e.type === 'agent.launched')).toHaveLength(3);
    expect(evs.filter((e) => e.type === 'task.completed')).toHaveLength(3);
    const changed = evs.filter((e) => e.type === 'executor.changed').map((e) => e.data.session_state);
    expect(changed.filter((st) => st === 'running')).toHaveLength(2);
    const rows = (await cli(['executors', 'list'])).json<{ runtime: string; endpoint: string }[]>();
    expect(rows[0]?.runtime).toBe('remote');
    expect(rows[0]?.endpoint).toBe(url);
  }, 120_000);
});
