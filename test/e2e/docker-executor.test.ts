import { chmodSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Dockerode from 'dockerode';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-workspace.js';
import { startServerProcess } from '../helpers/server.js';
import { batonProcesses, containersOf, exists, testDocker, until, writeAgent } from '../helpers/docker.js';

interface Row {
  id: string;
  workflow_id: string;
  runtime: string;
  status: string;
  session_state: string;
  container_id: string | null;
  endpoint: string | null;
  run_id: string | null;
  error_message: string | null;
}

const packageRoot = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
const procs = batonProcesses();
afterEach(() => procs.cleanup());

let docker: Dockerode;
let host: string;
let image: string;
beforeAll(async () => {
  ({ docker, host, image } = await testDocker());
});

/** A workspace whose CLI talks to the run's engine, a three-task workflow and the in-worktree agent. */
async function dockerWorkspace() {
  const ws = agentWorkspace({ DOCKER_HOST: host });
  const created = (await ws.create()).json<{ id: string }>();
  const agent = writeAgent(ws.repo);
  const args = [
    '--executor',
    'docker',
    '--docker-image',
    image,
    '--agent',
    'command',
    '--agent-bin',
    agent.bin,
  ];
  const rows = async () => (await ws.cli(['executors', 'list'])).json<Row[]>();
  const startRun = () => procs.spawn(['--json', 'run', ...args], ws.repo, ws.env);
  const readyRow = () =>
    until('the agent running in its container', async () => {
      const r = (await rows())[0];
      return r?.status === 'ready' && r.container_id && r.run_id && agent.runs().length > 0 ? r : null;
    });
  return { ...ws, id: created.id, agent, args, rows, startRun, readyRow };
}

describe('the Docker executor on a real engine', () => {
  it('runs each session in a labelled container with the worktree at the same path, removed at completion', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    expect(row.runtime).toBe('docker');
    expect(row.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const c = await docker.getContainer(row.container_id ?? '').inspect();
    expect(c.State.Running).toBe(true);
    expect(c.Config.Labels).toMatchObject({
      'baton.created_by': 'baton',
      'baton.session_id': `${w.id}#1`,
      'baton.workflow_id': w.id,
      'baton.executor_id': row.id,
    });
    expect(c.HostConfig.NetworkMode).toBe('host');
    const mounts = Object.fromEntries(c.Mounts.map((m) => [m.Destination, m]));
    expect(mounts[w.repo]).toMatchObject({ Source: w.repo, RW: true });
    expect(mounts[packageRoot]).toMatchObject({ Source: packageRoot, RW: false });
    expect(c.Config.Cmd?.slice(0, 2)).toEqual(['/usr/bin/node', `${packageRoot}/bin/baton.js`]);
    // The agent ran inside the container (the image has no shell), in the worktree, without the host's token.
    const first = w.agent.runs()[0];
    expect(first).toMatchObject({ shell: false, cwd: w.repo, token: null });
    expect(first?.node).toBe(process.version);
    expect((await containersOf(docker, w.id)).map((x) => x.Id)).toEqual([row.container_id]);

    w.agent.go();
    const done = await run.done;
    expect(done.code, run.output()).toBe(0);
    const report = JSON.parse(done.stdout.trim().split('\n').at(-1)!) as {
      status: string;
      tasks: { outcome: string }[];
    };
    expect(report.status).toBe('completed');
    expect(report.tasks.map((t) => t.outcome)).toEqual(['done', 'done', 'done']);
    // One container served the session's three tasks; completion removed it, and nothing else.
    expect(w.agent.runs()).toHaveLength(3);
    expect(w.count('agent.launched')).toBe(3);
    expect(await exists(docker, row.container_id ?? '')).toBe(false);
    expect(await containersOf(docker, w.id)).toEqual([]);
    const after = (await w.rows())[0];
    expect(after).toMatchObject({
      status: 'stopped',
      session_state: 'ended',
      container_id: row.container_id,
    });
  }, 90_000);

  it('`baton run -w <id>` alone, the command status names, runs the next session in a container again', async () => {
    const w = await dockerWorkspace();
    w.agent.go();
    const first = await w.cli(['run', ...w.args, '--max-tasks', '1']);
    expect(first.code, first.stderr).toBe(0);
    expect((await w.cli(['resume'])).code).toBe(0);
    const next = await w.cli(['run', '-w', w.id]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(
      `baton: no --executor given: running on Docker (image ${image}), as ${w.id} last ran`,
    );
    expect(next.json<{ status: string }>().status).toBe('completed');
    // every run was in a container (the image has no shell; this machine has one), none on this machine
    expect(w.agent.runs()).toHaveLength(3);
    expect(w.agent.runs().map((r) => r.shell)).toEqual([false, false, false]);
    expect(new Set((await w.rows()).map((r) => r.runtime))).toEqual(new Set(['docker']));
  }, 120_000);

  it('keeps the container running when `baton run` is SIGKILLed; `baton executors recover` re-attaches and completes', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    await procs.killHard(run.child);
    // The driver is gone; the container and the agent in it are not.
    expect((await docker.getContainer(row.container_id ?? '').inspect()).State.Running).toBe(true);
    const recover = procs.spawn(['--json', 'executors', 'recover', ...w.args], w.repo, w.env);
    await until('recovery re-attached to the running agent', () =>
      w.events().some((e) => e.type === 'executor.changed' && e.data.session_state === 'running'),
    );
    w.agent.go();
    const done = await recover.done;
    expect(done.code, recover.output()).toBe(0);
    const report = JSON.parse(done.stdout) as { executors: { action: string; executor_status: string }[] };
    expect(report.executors).toEqual([
      expect.objectContaining({ action: 'reconnected', executor_status: 'ready' }),
    ]);
    const status = (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>();
    expect(status.workflow.status).toBe('completed');
    // T1 was never launched again: one launch per task, the first followed across the crash.
    expect(w.count('agent.launched')).toBe(3);
    expect(w.count('workflow.interrupted')).toBe(0);
    expect(w.agent.runs()).toHaveLength(3);
    expect(await containersOf(docker, w.id)).toEqual([]);
    expect((await w.rows())[0]).toMatchObject({ status: 'stopped', session_state: 'ended' });
  }, 90_000);

  it('a new `baton serve` re-attaches to the container a SIGKILLed `baton run` left, and the workflow completes', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    await procs.killHard(run.child);
    const server = await startServerProcess(w.home, {
      args: ['--executor', 'docker', '--docker-image', image, '--agent-bin', w.agent.bin],
      env: { DOCKER_HOST: host },
      cwd: w.repo,
    });
    try {
      await until('the server re-attached to the running agent', () =>
        w.events().some((e) => e.type === 'executor.changed' && e.data.session_state === 'running'),
      );
      w.agent.go();
      await until(
        'the workflow completed under the server',
        async () =>
          (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>().workflow.status ===
          'completed',
        60_000,
      );
      expect(w.count('agent.launched')).toBe(3);
      expect(w.agent.runs()).toHaveLength(3);
      await until(
        'the container removed at completion',
        async () => !(await exists(docker, row.container_id ?? '')),
      );
      expect(await containersOf(docker, w.id)).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 90_000);

  for (const noticed of [false, true])
    it(`\`baton run\` and \`baton serve\` SIGKILLed together${noticed ? ' (the server had taken the run over)' : ''}: the next server follows the run in its container to its end`, async () => {
      const w = await dockerWorkspace();
      const serve = () =>
        startServerProcess(w.home, {
          args: ['--executor', 'docker', '--docker-image', image, '--agent-bin', w.agent.bin],
          env: { DOCKER_HOST: host },
          cwd: w.repo,
        });
      const first = await serve();
      const run = w.startRun();
      const row = await w.readyRow();
      if (noticed) {
        await procs.killHard(run.child);
        // a read through the server notices the dead driver: the server follows its agent
        await w.cli(['status', '-w', w.id], { BATON_URL: first.url, BATON_TOKEN: first.token });
        await until('the first server follows the agent', () =>
          first.stderr().includes('this server follows it'),
        );
      }
      const gone = new Promise((r) => first.child.once('exit', r));
      first.child.kill('SIGKILL');
      await procs.killHard(run.child);
      await gone;
      expect((await docker.getContainer(row.container_id ?? '').inspect()).State.Running).toBe(true);
      const second = await serve();
      try {
        await until('the second server re-attached', () => /1 re-attached/.test(second.stderr()));
        w.agent.go();
        await until(
          'the workflow completed under the second server',
          async () =>
            (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>().workflow.status ===
            'completed',
          60_000,
        ).catch((e: Error) => {
          throw new Error(`${e.message}\n${second.report()}\n${JSON.stringify(w.events().slice(-8))}`);
        });
        expect(w.count('agent.launched')).toBe(3);
        expect(w.agent.runs()).toHaveLength(3);
      } finally {
        await second.stop();
      }
    }, 120_000);

  it('a server started with --auto-resume none follows the run it re-attached to the end of its task, then the workflow pauses', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    await procs.killHard(run.child);
    const server = await startServerProcess(w.home, {
      args: ['--auto-resume', 'none'],
      env: { DOCKER_HOST: host },
      cwd: w.repo,
    });
    try {
      await until('the server re-attached', () => /1 re-attached/.test(server.stderr()));
      w.agent.go();
      const status = () =>
        w
          .cli(['status', '-w', w.id])
          .then((r) => r.json<{ workflow: { status: string }; tasks: { id: string; status: string }[] }>());
      await until(
        'the followed task done, the workflow paused',
        async () => (await status()).workflow.status === 'paused',
        60_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}\n${server.report()}`);
      });
      expect((await status()).tasks.map((t) => t.status)).toEqual(['done', 'pending', 'pending']);
      const session = (await w.cli(['session-status', '-w', w.id])).json<{ is_agent_running: boolean }>();
      expect(session.is_agent_running).toBe(false);
      expect(w.count('agent.launched')).toBe(1);
      expect(w.agent.runs()).toHaveLength(1);
      expect(server.stderr()).toContain(`following ${w.id} (session 1, task T1)`);
      await until('the container removed', async () => !(await exists(docker, row.container_id ?? '')));
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a container removed while Baton was down: recovery marks the executor and the session error with the reason', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    await procs.killHard(run.child);
    await docker.getContainer(row.container_id ?? '').remove({ force: true });
    const r = await w.cli(['executors', 'recover', '--auto-resume', 'none']);
    expect(r.code, r.stderr).toBe(0);
    const outcome = r.json<{ executors: { action: string; reason: string }[] }>().executors[0];
    expect(outcome?.action).toBe('error');
    expect(outcome?.reason).toContain(`container ${row.container_id?.slice(0, 12)} was removed`);
    const after = (await w.rows())[0];
    expect(after).toMatchObject({ status: 'error', session_state: 'error' });
    expect(after?.error_message).toBe(outcome?.reason);
    const status = (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>();
    expect(status.workflow.status).toBe('interrupted');
    const changed = w
      .events()
      .filter((e) => e.type === 'executor.changed')
      .at(-1);
    expect(changed?.data).toMatchObject({ status: 'error', session_state: 'error', reason: outcome?.reason });
  }, 60_000);

  it('a server with no executor setting resumes a workflow whose container was removed in a new one of the image it ran', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    await procs.killHard(run.child);
    await docker.getContainer(row.container_id ?? '').remove({ force: true });
    w.agent.go();
    // started plainly: no --agent, --agent-bin or --executor; the workflow's last run says them
    const server = await startServerProcess(w.home, {
      args: ['--auto-resume', 'all'],
      env: { DOCKER_HOST: host },
      cwd: w.repo,
    });
    try {
      await until(
        'the workflow completed under the server',
        async () =>
          (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>().workflow.status ===
          'completed',
        60_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}\n${server.report()}`);
      });
      // every run was in a container (the image has no shell; this machine has one), none on this machine
      expect(w.agent.runs().length).toBeGreaterThan(1);
      expect(new Set(w.agent.runs().map((r) => r.shell))).toEqual(new Set([false]));
      expect(new Set((await w.rows()).map((r) => r.runtime))).toEqual(new Set(['docker']));
      expect(server.stderr()).toContain(`no --agent given: running command, the agent ${w.id} last ran with`);
      expect(server.stderr()).toContain(
        `no --agent-bin given: running ${w.agent.bin}, the program ${w.id} last ran`,
      );
      expect(server.stderr()).toContain(
        `no --executor given: running on Docker (image ${image}), as ${w.id} last ran`,
      );
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a container stopped while Baton was down: error with its exit code and last output; `executors stop` removes it', async () => {
    const w = await dockerWorkspace();
    const run = w.startRun();
    const row = await w.readyRow();
    await procs.killHard(run.child);
    await docker.getContainer(row.container_id ?? '').kill({ signal: 'SIGKILL' });
    const r = await w.cli(['executors', 'recover', '--auto-resume', 'none']);
    const reason = r.json<{ executors: { reason: string }[] }>().executors[0]?.reason ?? '';
    expect(reason).toContain('exit code 137');
    expect(reason).toContain('its last output');
    expect(reason).toContain(row.endpoint ?? 'the URL the agent host printed');
    expect((await w.rows())[0]).toMatchObject({
      status: 'error',
      session_state: 'error',
      error_message: reason,
    });
    // The stopped container is kept for inspection until Baton is told to stop the executor.
    expect(await exists(docker, row.container_id ?? '')).toBe(true);
    const stop = await w.cli(['executors', 'stop', row.id]);
    expect(stop.code, stop.stderr).toBe(0);
    expect(await exists(docker, row.container_id ?? '')).toBe(false);
    expect((await w.rows())[0]).toMatchObject({ status: 'stopped', session_state: 'ended' });
  }, 60_000);
});

describe("the agent's environment in its container", () => {
  it('the Baton command the prompt names runs in the container, and what the agent records reaches the store', async () => {
    const ws = agentWorkspace({ DOCKER_HOST: host });
    const id = ws.create().then((r) => r.json<{ id: string }>().id);
    const bin = join(ws.repo, '.agent', 'record.mjs');
    mkdirSync(dirname(bin), { recursive: true });
    // runs the command the prompt gives for a decision, exactly (the image has no shell), and keeps what it said
    writeFileSync(
      bin,
      `#!/usr/bin/env node
import { appendFileSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const prompt = readFileSync(0, 'utf8');
const cmd = /a decision and why: \`(.*) record decision/.exec(prompt)?.[1] ?? '';
const words = cmd.split(' ');
const r = spawnSync(words[0], [...words.slice(1), 'record', 'decision', '--type', 'approach', '--description',
  'decided in the container', '--rationale', 'the test says so', '--task', /--task (T\\d)/.exec(prompt)[1]], { encoding: 'utf8' });
appendFileSync(${JSON.stringify(join(ws.repo, '.agent', 'said.jsonl'))},
  JSON.stringify({ cmd, status: r.status, error: r.error?.message ?? null, stderr: r.stderr,
    secret: process.env.BATON_TEST_SECRET ?? null, mode: process.env.MODE ?? null }) + '\\n');
`,
    );
    chmodSync(bin, 0o755);
    const wid = await id;
    const args = ['--executor', 'docker', '--docker-image', image, '--agent', 'command', '--agent-bin', bin];
    // `baton` on this machine's PATH, as after a global install: the prompt must not name it to the container
    const onPath = join(ws.home, 'path-bin');
    mkdirSync(onPath);
    symlinkSync(join(packageRoot, 'bin', 'baton.js'), join(onPath, 'baton'));
    // variables for the agent: one from Baton's environment by name, one with its value
    const given = ['--docker-env', 'BATON_TEST_SECRET', '--docker-env', 'MODE=container'];
    const run = await ws.cli(['run', '-w', wid, ...args, ...given], {
      PATH: `${onPath}:${process.env.PATH ?? ''}`,
      BATON_TEST_SECRET: 's3cret',
    });
    expect(run.code, run.stderr).toBe(0);
    const said = readFileSync(join(ws.repo, '.agent', 'said.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { cmd: string; status: number | null; error: string | null; stderr: string },
      );
    expect(said).toHaveLength(3);
    expect(said[0]?.cmd).toBe(`/usr/bin/node ${join(packageRoot, 'bin', 'baton.js')} -w ${wid}`);
    for (const s of said)
      expect(s, JSON.stringify(s)).toMatchObject({
        status: 0,
        error: null,
        secret: 's3cret',
        mode: 'container',
      });
    const decisions = ws.events().filter((e) => e.type === 'decision.recorded');
    expect(decisions).toHaveLength(3);
    for (const d of decisions) expect(JSON.stringify(d.data)).toContain('decided in the container');
  }, 120_000);
});

describe('baton cleanup and the Docker executor', () => {
  it('removes the containers Baton created for the workflows it deletes, and no other container', async () => {
    const w = await dockerWorkspace();
    const other = await docker.createContainer({
      Image: image,
      Cmd: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'],
      Labels: { 'baton.workflow_id': w.id, 'baton.executor_id': 'not-baton' },
      HostConfig: { NetworkMode: 'host' },
    });
    try {
      const run = w.startRun();
      const row = await w.readyRow();
      await procs.killHard(run.child);
      await docker.getContainer(row.container_id ?? '').kill({ signal: 'SIGKILL' });
      expect((await w.cli(['executors', 'recover', '--auto-resume', 'none'])).code).toBe(0);
      const abandon = await w.cli(['abandon', '-w', w.id]);
      expect(abandon.code, abandon.stderr).toBe(0);
      // The stopped container is still there (kept for inspection) until its workflow is cleaned up.
      expect(await exists(docker, row.container_id ?? '')).toBe(true);
      const clean = await w.cli(['cleanup', '--older-than', '0s']);
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.json<{ removed: { id: string }[] }>().removed.map((x) => x.id)).toContain(w.id);
      expect(await exists(docker, row.container_id ?? '')).toBe(false);
      // A container carrying the workflow's label that Baton did not create is left alone.
      expect((await containersOf(docker, w.id)).map((c) => c.Id)).toEqual([other.id]);
    } finally {
      await other.remove({ force: true });
    }
  }, 60_000);
});
