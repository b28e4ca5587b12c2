import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batonBin } from '../helpers/cli.js';
import { agentWorkspace, fakeClaude, pidAlive, until } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { startServerProcess } from '../helpers/server.js';

/**
 * `baton run --executor remote` against a real `baton executor serve` (its own process): the driver SIGKILLed while
 * the agent works (the next `baton run` re-attaches to that run), and the agent host SIGKILLed under a running
 * `baton run` (said at once; the work the orphaned agent committed is handed to the next run).
 */

interface Row {
  workflow_id: string;
  pid: number | null;
  run_id: string | null;
  resume_token: string | null;
  session_state: string;
}
interface Status {
  workflow: { id: string; status: string };
  tasks: { id: string; status: string }[];
}

const children: ChildProcess[] = [];
const gates: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  // an agent still waiting at its gate (a failed test) ends: agents outlive their host by design
  for (const g of gates.splice(0)) writeFileSync(g, 'open');
});

/** `baton executor serve` on `port` (0: any), with the agents' environment; resolves once it listens. */
async function startDaemon(cwd: string, env: Record<string, string>, port = 0) {
  const child = spawn(process.execPath, [batonBin, 'executor', 'serve', '--port', String(port)], {
    cwd,
    env: hermeticEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (c) => reject(new Error(`executor serve exited with ${c}: ${out}`)));
  });
  return { child, url, port: Number(new URL(url).port) };
}

const killHard = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
};

/** The tasks the fake agent was launched for, one entry per launch (its FAKE_LOG). */
const launches = (log: string) =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { task: string; resume: string | null }).task);

/** A workspace with a remote agent host whose agents wait mid-task at a gate the test opens. */
async function remoteWorkspace(extra: Record<string, string> = {}) {
  const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
  expect((await ws.create()).code).toBe(0);
  const dir = tempDir('remote-agents-');
  const gate = join(dir, 'gate');
  gates.push(gate);
  const log = join(dir, 'launches.ndjson');
  const agentEnv = { ...ws.env, FAKE_GATE: gate, FAKE_LOG: log };
  const daemon = await startDaemon(ws.repo, { ...agentEnv, ...extra });
  const remote = ['--executor', 'remote', '--executor-url', daemon.url];
  const midTask = () =>
    until('the agent mid-task on the agent host', async () => {
      const rows = (await ws.cli(['executors', 'list'])).json<Row[]>();
      return rows.find((r) => r.run_id && r.resume_token && r.pid && r.session_state === 'running') ?? null;
    });
  return { ws, gate, log, agentEnv, daemon, remote, midTask, open: () => writeFileSync(gate, 'open') };
}

describe('baton run --executor remote', () => {
  it.each(['still running', 'finished'])(
    'SIGKILLed mid-task, the agent %s on its host: `baton status` says so without waiting for it, and the next `baton run` re-attaches to that run instead of starting the task again',
    async (when) => {
      const { ws, log, remote, midTask, open } = await remoteWorkspace();
      const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms', ...remote]);
      children.push(run.child);
      const agent = await midTask();
      await killHard(run.child);
      if (when === 'finished') {
        open();
        await until('the agent to finish on its host', async () => !pidAlive(agent.pid as number));
      }
      // Any command notices the dead driver; it leaves the remote run to the next driver and returns at once.
      const status = await Promise.race([
        ws.cli(['status']),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('baton status waited for the remote agent')), 15_000),
        ),
      ]);
      expect(status.code, status.stderr).toBe(0);
      const said = when === 'finished' ? 'ended on' : 'still runs on';
      expect(status.stderr).toContain(`its agent ${said} ${remote[3]} (task T1)`);
      expect(status.stderr).toContain('the next driver (`baton run -w wf-');
      expect(status.json<Status>().workflow.status).toBe('in_progress');
      if (when === 'still running') expect(pidAlive(agent.pid as number)).toBe(true);
      const again = ws.spawnRun([
        '--json',
        'run',
        '--agent',
        'claude-code',
        '--heartbeat',
        '200ms',
        ...remote,
      ]);
      children.push(again.child);
      await until('the next run to re-attach', async () => again.out.stderr.includes('reattached to T1'));
      open();
      expect(await again.exited, again.out.stderr).toBe(0);
      expect(again.out.stderr).toContain(`reattached to T1 on ${remote[3]}`);
      // T1 ran once, in the agent the first run started: its result was read and recorded by the second.
      expect(launches(log)).toEqual(['T1', 'T2', 'T3']);
      const id = status.json<Status>().workflow.id;
      const events = await ws.storedEvents(id);
      expect(events.filter((e) => e.type === 'agent.launched')).toHaveLength(3);
      expect(events.filter((e) => e.type === 'task.completed')).toHaveLength(3);
      const exits = events.filter((e) => e.type === 'agent.exited');
      expect(exits.map((e) => e.data.outcome)).toEqual(['success', 'success', 'success']);
      const final = (await ws.cli(['status', '-w', id])).json<Status>();
      expect(final.workflow.status).toBe('completed');
      expect(final.tasks.map((t) => t.status)).toEqual(['done', 'done', 'done']);
    },
    90_000,
  );

  it('SIGKILLed mid-task beside a `baton serve`: the server, noticing the dead driver, follows the run on the agent host and goes on with the workflow; no task is started twice', async () => {
    const { ws, log, remote, midTask, open } = await remoteWorkspace();
    const server = await startServerProcess(ws.home, { cwd: ws.repo, env: ws.env });
    children.push(server.child);
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms', ...remote]);
    children.push(run.child);
    const agent = await midTask();
    await killHard(run.child);
    // the dashboard's list: the server notices the driver is gone (as its heartbeat monitor would, later)
    expect((await server.api('/api/workflows')).status).toBe(200);
    await until('the server to say it follows the run', async () =>
      server.stderr().includes(`its agent still runs on ${remote[3]} (task T1); this server follows it`),
    );
    expect(pidAlive(agent.pid as number)).toBe(true);
    // why it goes on with the workflow (the driver stopped) before it says it resumes it
    await until('the server to resume it', async () =>
      server.stderr().includes(`resuming ${agent.workflow_id} `),
    );
    const err = server.stderr();
    const why = err.indexOf(`${agent.workflow_id}: the driver `);
    expect(why, err).toBeGreaterThanOrEqual(0);
    expect(err.indexOf(`resuming ${agent.workflow_id} `), err).toBeGreaterThan(why);
    open();
    await until('the server to finish the workflow', async () => server.stderr().includes(': completed'));
    expect(server.stderr()).not.toContain('the next driver');
    // T1 ran once, in the agent the dead `baton run` started; the server read how it ended and ran T2 and T3
    expect(launches(log)).toEqual(['T1', 'T2', 'T3']);
    const st = (await ws.cli(['status', '-w', agent.workflow_id])).json<Status>();
    expect(st.workflow.status).toBe('completed');
    const exits = (await ws.storedEvents(agent.workflow_id)).filter((e) => e.type === 'agent.exited');
    expect(exits.map((e) => e.data.outcome)).toEqual(['success', 'success', 'success']);
    await server.stop();
  }, 90_000);

  it('SIGKILLed mid-task beside a `baton serve --auto-resume none`: its heartbeat monitor does not take the dead driver for a silent agent, and the next `baton run` re-attaches', async () => {
    const { ws, log, remote, midTask, open } = await remoteWorkspace();
    // a timeout a loaded machine cannot reach between the next driver's take-over and its first heartbeat
    const args = ['--auto-resume', 'none', '--heartbeat-timeout', '3s'];
    const server = await startServerProcess(ws.home, { cwd: ws.repo, env: ws.env, args });
    children.push(server.child);
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms', ...remote]);
    children.push(run.child);
    const agent = await midTask();
    await killHard(run.child);
    // the monitor sweeps every 750 ms: several sweeps pass the agent's silent row while it still works on its host
    await until(
      'the server to notice the silent session',
      async () =>
        /heartbeat: \d+ silent session\(s\)/.test(server.stderr()) ||
        server.stderr().includes('still runs on'),
    );
    await new Promise((r) => setTimeout(r, 4_000));
    expect(server.stderr()).not.toContain('went silent');
    const st = (await ws.cli(['status', '-w', agent.workflow_id])).json<Status>();
    expect(st.workflow.status).toBe('in_progress');
    const again = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms', ...remote]);
    children.push(again.child);
    await until('the next run to re-attach', async () => again.out.stderr.includes('reattached to T1'));
    open();
    expect(await again.exited, again.out.stderr).toBe(0);
    expect(launches(log)).toEqual(['T1', 'T2', 'T3']);
    expect(server.stderr()).not.toMatch(/interrupted wf-/);
    await server.stop();
  }, 90_000);

  it('the agent host SIGKILLed mid-task and restarted: `baton run` says at once that it lost it and until when it retries; the work its orphaned agent committed is not taken for undone', async () => {
    // the agents' environment comes from their host: this one's agent commits for real once the gate opens
    const { ws, gate, agentEnv, daemon, remote, midTask, open } = await remoteWorkspace({
      FAKE_RUN: 'git commit --allow-empty -qm "$FAKE_TASK: work"',
    });
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms', ...remote]);
    children.push(run.child);
    await midTask();
    await killHard(daemon.child);
    const killedAt = Date.now();
    await until('baton run to say it lost the agent host', async () =>
      run.out.stderr.includes(`lost contact with the executor ${remote[3]}`),
    );
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(run.out.stderr).toMatch(/retrying until \d\d:\d\d:\d\d/);
    // the orphaned agent works on and commits while nobody reads its output
    open();
    const subject = () =>
      spawnSync('git', ['log', '-1', '--format=%h %s'], { cwd: ws.repo, encoding: 'utf8' });
    await until('the orphaned agent to commit', async () => subject().stdout.includes('T1: work'));
    const hash = subject().stdout.split(' ')[0] as string;
    // The host comes back, without the run: `baton run` stops there, T1 left in progress, not failed.
    const prompts = tempDir('prompts-');
    await startDaemon(ws.repo, { ...agentEnv, FAKE_GATE: gate, FAKE_PROMPT_DIR: prompts }, daemon.port);
    expect(await run.exited, run.out.stderr).toBe(1);
    const report = JSON.parse(run.out.stdout.trim().split('\n').at(-1) as string) as {
      workflow_id: string;
      status: string;
      tasks: { id: string; outcome: string; detail: string }[];
    };
    expect(report.status).toBe('interrupted');
    expect(report.tasks).toMatchObject([{ id: 'T1', outcome: 'lost' }]);
    // what happened, the commit git has that no output reported, and how to go on
    const detail = report.tasks[0]?.detail ?? '';
    expect(detail).toContain(`the executor ${remote[3]} answers but no longer knows the run`);
    expect(detail).toMatch(new RegExp(`${hash}[0-9a-f]* T1: work`));
    expect(detail).toContain(`\`baton run -w ${report.workflow_id}\` goes on with T1`);
    // the run's last line names the same run again, on the same agent host
    expect((report as { next?: string }).next).toContain(
      `\`baton run -w ${report.workflow_id} --agent claude-code --executor remote --executor-url ${remote[3]}\``,
    );
    const st = (await ws.cli(['status'])).json<Status>();
    expect(st.workflow.status).toBe('interrupted');
    expect(st.tasks.find((t) => t.id === 'T1')?.status).toBe('in_progress');
    // The next run goes on with T1, told that its commit exists.
    const again = await ws.cli(['run', '--agent', 'claude-code', ...remote]);
    expect(again.code, again.stderr).toBe(0);
    const [t1] = readdirSync(prompts).sort();
    const prompt = readFileSync(join(prompts, t1 as string), 'utf8');
    expect(prompt).toContain('## Task T1:');
    expect(prompt).toMatch(new RegExp(`${hash}[0-9a-f]* T1: work`));
  }, 120_000);
});
