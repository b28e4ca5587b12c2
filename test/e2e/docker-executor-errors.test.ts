import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { buildNodeImage, dockerClient, startEngine } from '../helpers/docker-engine.js';
import { batonProcesses, containersOf, testDocker, until, within, writeAgent } from '../helpers/docker.js';

interface Row {
  id: string;
  status: string;
  session_state: string;
  container_id: string | null;
  run_id: string | null;
  error_message: string | null;
}

const procs = batonProcesses();
afterEach(() => procs.cleanup());

let docker: Dockerode;
let host: string;
let image: string;
beforeAll(async () => {
  ({ docker, host, image } = await testDocker());
});

async function workspace(engineHost = host, img = image) {
  const ws = agentWorkspace({ DOCKER_HOST: engineHost });
  const id = (await ws.create()).json<{ id: string }>().id;
  const agent = writeAgent(ws.repo);
  const args = [
    '--executor',
    'docker',
    '--docker-image',
    img,
    '--agent',
    'command',
    '--agent-bin',
    agent.bin,
  ];
  const rows = async () => (await ws.cli(['executors', 'list'])).json<Row[]>();
  const taskStatus = async () =>
    (await ws.cli(['status', '-w', id])).json<{ tasks: { id: string; status: string }[] }>().tasks[0]?.status;
  return { ...ws, id, agent, args, rows, taskStatus };
}

/** Nothing was started or created: no executor row, no container, the first task still pending. */
async function nothingCreated(w: Awaited<ReturnType<typeof workspace>>) {
  expect(await w.rows()).toEqual([]);
  expect(await containersOf(docker, w.id)).toEqual([]);
  expect(await w.taskStatus()).toBe('pending');
}

describe('the Docker executor: bad input and a lost engine', () => {
  it('an image that is not in the engine: a clear error, nothing started', async () => {
    const w = await workspace(host, 'baton-test-missing:nope');
    const r = await w.cli(['run', ...w.args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the image baton-test-missing:nope is not in the Docker engine');
    expect(r.stderr).toContain('Baton never pulls images');
    await nothingCreated(w);
  });

  it('the settings from the environment and the config file; no image at all is a clear error', async () => {
    const w = await workspace();
    const agentArgs = ['--agent', 'command', '--agent-bin', w.agent.bin];
    const noImage = await w.cli(['run', ...agentArgs], { BATON_EXECUTOR: 'docker' });
    expect(noImage.code).toBe(2);
    expect(noImage.stderr).toContain('--executor docker needs an image: --docker-image IMAGE');
    const badKind = await w.cli(['run', ...agentArgs], { BATON_EXECUTOR: 'podman' });
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('executor "podman" is not one of local, remote, docker');
    // BATON_EXECUTOR and BATON_DOCKER_IMAGE reach the Docker executor: the image is looked up in the engine.
    const env = await w.cli(['run', ...agentArgs], {
      BATON_EXECUTOR: 'docker',
      BATON_DOCKER_IMAGE: 'baton-test-missing:env',
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('the image baton-test-missing:env is not in the Docker engine');
    // So do the config file's executor and docker_image.
    writeFileSync(
      join(w.home, 'config.json'),
      JSON.stringify({ executor: 'docker', docker_image: 'baton-test-missing:config' }),
    );
    const config = await w.cli(['run', ...agentArgs]);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('the image baton-test-missing:config is not in the Docker engine');
    await nothingCreated(w);
  });

  it('an engine that is not running, and one that is not installed: each says what to do, nothing started', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-noengine-'));
    try {
      const w = await workspace(`unix://${join(dir, 'docker.sock')}`);
      const down = await w.cli(['run', ...w.args]);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain(`the Docker engine at unix://${join(dir, 'docker.sock')}`);
      expect(down.stderr).toContain('is not running: start it');
      // A PATH with git and nothing of Docker's: Baton says Docker is not installed.
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      symlinkSync('/usr/bin/git', join(bin, 'git'));
      const none = await w.cli(['run', ...w.args], { PATH: bin });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('Docker is not installed');
      expect(none.stderr).toContain('apt-get install docker.io');
      await nothingCreated(w);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a worktree that no longer exists: a clear error before anything is created', async () => {
    const w = await workspace();
    rmSync(w.repo, { recursive: true, force: true });
    const r = await runCli(['--json', 'run', '-w', w.id, ...w.args], { cwd: tmpdir(), env: w.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the worktree ${w.repo} does not exist`);
    expect(await containersOf(docker, w.id)).toEqual([]);
    // The worktree is gone, so the check runs elsewhere.
    const list = await runCli(['--json', 'executors', 'list'], { cwd: tmpdir(), env: w.env });
    expect(list.json<Row[]>()).toEqual([]);
  });

  it('a container of someone else carrying the session label: refused, left alone, nothing of Baton left behind', async () => {
    const w = await workspace();
    const foreign = await docker.createContainer({
      Image: image,
      Cmd: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'],
      Labels: { 'baton.session_id': `${w.id}#1` },
      HostConfig: { NetworkMode: 'host' },
    });
    await foreign.start();
    try {
      const r = await w.cli(['run', ...w.args]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`already carries the label baton.session_id=${w.id}#1`);
      expect(r.stderr).toContain('docker rm -f');
      expect((await foreign.inspect()).State.Running).toBe(true);
      const ours = (await containersOf(docker, w.id)).filter((c) => c.Labels['baton.created_by'] === 'baton');
      expect(ours).toEqual([]);
      // The failed launch is recorded where the user looks: the executor row and its event.
      const row = (await w.rows())[0];
      expect(row).toMatchObject({ status: 'error', session_state: 'error' });
      expect(row?.error_message).toContain('already carries the label');
    } finally {
      await foreign.remove({ force: true });
    }
  });

  it('a container removed under the running driver: the run ends at once with the reason', async () => {
    const w = await workspace();
    const run = procs.spawn(['--json', 'run', ...w.args], w.repo, w.env);
    const row = await until('the agent running', async () => {
      const r = (await w.rows())[0];
      return r?.status === 'ready' && r.container_id && w.agent.runs().length ? r : null;
    });
    await docker.getContainer(row.container_id ?? '').remove({ force: true });
    const done = await within(run.done, 30_000, 'the run did not end', () =>
      [run.output(), ...w.events().map((e) => JSON.stringify(e))].join('\n'),
    );
    // A failed task is a failed run (issue 13): exit 1, the cause in the report and the status.
    expect(done.code, run.output()).toBe(1);
    const report = JSON.parse(done.stdout.trim().split('\n').at(-1)!) as {
      tasks: { id: string; outcome: string }[];
    };
    // The command agent's driver reports an exit without its result as an error (a signal alone is 'killed').
    expect(report.tasks.map((t) => ({ id: t.id, outcome: t.outcome }))).toEqual([
      { id: 'T1', outcome: 'error' },
    ]);
    const errors = (await w.cli(['status', '-w', w.id])).json<{ tasks: { id: string; status: string }[] }>();
    expect(errors.tasks[0]).toMatchObject({ id: 'T1', status: 'failed' });
    const exited = w.events().find((e) => e.type === 'agent.exited');
    expect(String(exited?.data.message)).toContain('was removed while the agent ran');
  });

  it('an engine that went down: recovery cannot check the agent and writes nothing off, naming the engine', async () => {
    // A second, private engine, stopped under the session (the shared one keeps serving the other tests).
    const dir = mkdtempSync(join(tmpdir(), 'be-'));
    const engine = await startEngine(dir);
    try {
      const img = await buildNodeImage(dockerClient(engine.host));
      const w = await workspace(engine.host, img);
      const run = procs.spawn(['--json', 'run', ...w.args], w.repo, w.env);
      const row = await until('the agent running', async () => {
        const r = (await w.rows())[0];
        return r?.status === 'ready' && r.container_id && w.agent.runs().length ? r : null;
      });
      await procs.killHard(run.child);
      await engine.stop();
      const r = await w.cli(['executors', 'recover', '--auto-resume', 'none']);
      expect(r.code, r.stderr).toBe(0);
      const out = r.json<{ executors: { action: string; reason: string }[] }>().executors[0];
      expect(out?.action).toBe('unchecked');
      expect(out?.reason).toContain("its agent's liveness cannot be checked from here");
      expect(out?.reason).toContain(`the Docker engine at ${engine.host} (DOCKER_HOST) is not running`);
      expect((await w.rows())[0]).toMatchObject({ id: row.id, status: 'ready', session_state: 'running' });
      const st = (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>();
      expect(st.workflow.status).toBe('in_progress');
    } finally {
      await engine.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    }
  }, 90_000);

  it('a command that cannot reach the engine never writes off a running container, nor starts a second agent', async () => {
    const w = await workspace();
    const run = procs.spawn(['--json', 'run', ...w.args], w.repo, w.env);
    const row = await until('the agent running', async () => {
      const r = (await w.rows())[0];
      return r?.status === 'ready' && r.container_id && r.run_id && w.agent.runs().length ? r : null;
    });
    await procs.killHard(run.child);
    // Commands run without DOCKER_HOST: the default socket has no engine.
    const blind = { DOCKER_HOST: '' };
    const st = await w.cli(['status', '-w', w.id], blind);
    expect(st.json<{ workflow: { status: string } }>().workflow.status).toBe('in_progress');
    expect(st.stderr).toContain("its agent's liveness cannot be checked from here");
    const session = (await w.cli(['session-status', '-w', w.id], blind)).json<{
      is_agent_running: boolean;
      agent_running_note: string;
    }>();
    expect(session.is_agent_running).toBe(true);
    expect(session.agent_running_note).toMatch(
      /^unknown \(its agent's liveness cannot be checked from here: .*DOCKER_HOST/,
    );
    expect((await w.rows())[0]).toMatchObject({ id: row.id, status: 'ready', session_state: 'running' });
    // A second agent on the same worktree is refused, saying why (even one this machine could start itself).
    const local = ['--executor', 'local', '--agent', 'command', '--agent-bin', w.agent.bin];
    const again = await w.cli(['run', '-w', w.id, ...local], blind);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('not starting another agent on its worktree while it may still run');
    expect(w.agent.runs()).toHaveLength(1);
    expect((await docker.getContainer(row.container_id ?? '').inspect()).State.Running).toBe(true);
    // Where the engine is reachable, the run is followed to its end.
    const recover = procs.spawn(['--json', 'executors', 'recover', ...w.args], w.repo, w.env);
    await until('recovery re-attached to the running agent', () =>
      w.events().some((e) => e.type === 'executor.changed' && e.data.session_state === 'running'),
    );
    w.agent.go();
    const done = await recover.done;
    expect(done.code, recover.output()).toBe(0);
    const report = JSON.parse(done.stdout) as { executors: { action: string }[] };
    expect(report.executors).toEqual([expect.objectContaining({ action: 'reconnected' })]);
    expect(
      (await w.cli(['status', '-w', w.id])).json<{ workflow: { status: string } }>().workflow.status,
    ).toBe('completed');
    expect(w.count('workflow.interrupted')).toBe(0);
    // T1 launched once, followed across the crash; then T2 and T3.
    expect(w.count('agent.launched')).toBe(3);
  }, 90_000);
});
