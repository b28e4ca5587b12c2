import { describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/settings.js';
import { launchAgent, type ExecutorChoice } from '../core/index.js';
import { agentSetup, type AgentFlags } from './agent-setup.js';
import { runBasics, runShared, serverRun, serverRuns } from './agent-runs.js';
import { makeRepo, tempDir } from '../../test/helpers/git-repo.js';
import { makeService, sqliteStore } from '../../test/helpers/service.js';
import { readCorpus } from '../../test/helpers/corpus.js';

// The runs `baton serve` resumes (startup recovery, `baton executors recover`) decide their agent, program and
// executor as `baton run -w` does: real SQLite store, real settings, the executors built but not started.

const docker: ExecutorChoice = { executor: 'docker', docker_image: 'baton-agent:test' };

/** A workflow whose last agent.launched recorded the `command` agent, its program and a Docker executor. */
async function lastRanInDocker() {
  const svc = makeService(sqliteStore());
  const wf = await svc.create({
    title: 'in docker',
    tasks: [{ id: 'T1', title: 'Schema' }],
    worktree: makeRepo(),
  });
  await svc.startTask({ workflowId: wf.id }, 'T1');
  await svc.runner.run(wf.id, (d) =>
    launchAgent(d, {
      agent: 'command',
      executor_id: 'ex-1',
      resume_token: null,
      fallback: null,
      bin: './agent.mjs',
      executor: docker,
    }),
  );
  return { svc, id: wf.id };
}

/** The run a server started with these flags would resume the workflow with, and what it logs. */
async function resumed(flags: AgentFlags) {
  const { svc, id } = await lastRanInDocker();
  const env = { BATON_HOME: tempDir('baton-home-'), PATH: process.env.PATH };
  const settings = loadSettings({}, env, null);
  const lines: string[] = [];
  const setup = agentSetup(flags, env, settings, null);
  const run = await serverRun(
    serverRuns(svc, setup, settings, env, (l) => lines.push(l)),
    id,
    1,
    'command',
  );
  return { id, run, lines };
}

describe('the runs baton serve resumes', () => {
  it('a workflow that last ran in a Docker container resumes in one of its image, with its agent and program', async () => {
    const { run } = await resumed({});
    if (!('executor' in run)) throw new Error(run.refused);
    expect(run.executor.runtime).toBe('docker');
    expect(run.executor.choice).toEqual(docker);
  });

  it("a server given its own executor, or another agent, runs on that one's", async () => {
    // on this machine, the program the workflow last ran is checked here (and is not found: the run is refused)
    const local = await resumed({ executor: 'local' });
    expect(local.run).toEqual({ refused: expect.stringContaining('./agent.mjs was not found') });
    const bin = await resumed({ executor: 'local', agentBin: process.execPath });
    if (!('executor' in bin.run)) throw new Error(bin.run.refused);
    expect(bin.run.executor.runtime).toBe('local');
    const other = await resumed({ agent: 'codex', agentBin: process.execPath });
    if (!('executor' in other.run)) throw new Error(other.run.refused);
    expect(other.run.executor.runtime).toBe('local');
  });
});

describe('what a run reads of its agent', () => {
  it("says a Codex code-mode command that carries no exit code failed when its output says so, as the briefing's errors do", async () => {
    // the run's own reader, fed a real rollout: "zsh:2: command not found: hk" (line 232), `hk fix` ran, then
    // "sh: pkl: command not found" (line 238), each cell's result carrying no exit code
    vi.stubEnv('CODEX_HOME', tempDir('codex-home-'));
    const env = { BATON_HOME: tempDir('baton-home-'), PATH: process.env.PATH };
    const settings = loadSettings({}, env, null);
    const setup = agentSetup({}, env, settings, null);
    const shared = runShared(makeService(sqliteStore()), setup, settings, env);
    const profile = setup.profileOf('codex', process.execPath);
    const { driver } = runBasics(setup, shared, profile, setup.executorOf(null));
    const reader = driver.parser({ fromStart: true });
    const rollout = readCorpus('codex/hk/e5/cb0813e003/0/full.jsonl').split('\n').slice(0, 239).join('\n');
    const said = [...reader.push(`${rollout}\n`), ...reader.end()].flatMap((s) =>
      s.type === 'summary' && s.kind === 'last_message' ? [s.text] : [],
    );
    expect(said.at(-1)).toMatch(
      /\n\nAfter it: `exec: git status --short --branch[^`]*` failed; `exec: target\/debug\/hk fix -S [^`]*` worked; `exec: target\/debug\/hk fix --all [^`]*` failed$/,
    );
  });
});
