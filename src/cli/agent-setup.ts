import { hostname } from 'node:os';
import { driverFor, resolveProfile } from '../agents/runtime/index.js';
import { readAgentProfiles } from '../config/agent-config.js';
import { capacityPolicy } from '../config/capacity-policy.js';
import type { SettingReader } from '../config/setting-reader.js';
import { settingReader, type Settings } from '../config/settings.js';
import {
  CONTEXT_WINDOW_RANGE,
  FIRST_RETRY_WAIT,
  invalidInput,
  MAX_SESSIONS_RANGE,
  type ExecutorChoice,
  type RunGiven,
} from '../core/index.js';
import { DockerEngine } from '../executors/docker/engine.js';
import { containerEnv } from '../executors/docker/container-env.js';
import { DockerExecutor } from '../executors/docker/docker-executor.js';
import { executorFactory, releaseByRuntime, remoteExecutor } from '../executors/executor-factory.js';
import { executableStanding } from '../executors/local/find-executable.js';
import { LocalExecutor } from '../executors/local/local-executor.js';
import { ownerId } from '../executors/process-identity.js';
import type { AgentProfile, Executor } from '../service/runtime/index.js';

/** The agent runtime's options; each is a row of the settings table (src/config/setting-table.ts). */
export interface AgentFlags {
  agent?: string;
  agentBin?: string;
  contextWindow?: string;
  warnAt?: string;
  pauseAt?: string;
  heartbeat?: string;
  stallTimeout?: string;
  executor?: string;
  executorUrl?: string;
  dockerImage?: string;
  dockerEnv?: string;
  maxSessions?: string;
  retryWait?: string;
}

/** What a run was given of the settings its last run can stand in for (`lastRunChoice`): by option, variable or config. */
export function runGiven(
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
  settings: Pick<Settings, 'configFiles'>,
): RunGiven {
  const r = settingReader({ agent: o.agent, agentBin: o.agentBin, executor: o.executor }, env, settings);
  return { agent: r.text('agent'), agentBin: r.text('agentBin'), executor: r.text('executor') };
}

/**
 * The agent runtime's settings, each option > variable > the worktree's `baton.config.json` > `$BATON_HOME/config.json`
 * > default (the one resolver); agent profiles come from the `agents` key of the same files.
 */
export function agentSetup(
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
  settings: Settings,
  worktree: string | null,
) {
  const r = settingReader(o, env, settings);
  const agentName = r.text('agent') || null;
  const profiles = readAgentProfiles(settings.home, worktree);
  const profileOf = (name: string, lastBin?: string) => agentProfile(name, profiles, r, lastBin);
  const profile: AgentProfile | null = agentName ? profileOf(agentName) : null;
  const capacity = capacityPolicy(r);
  const heartbeatMs = r.durationMs('heartbeat', '10s');
  if (heartbeatMs <= 0) throw r.invalid('heartbeat', 'must be positive');
  // a hung agent (nothing printed: its tools run within their own limits, ten minutes at most for Claude Code's); a
  // `command` agent (any script, with no such limits) is stopped only when a stall timeout is set
  const stallMs = r.durationMs('stallTimeout', '30m') || null;
  const stallSet = r.get('stallTimeout').from !== 'default';
  const kind = r.oneOf('executor', ['local', 'remote', 'docker'] as const, 'local');
  const url = r.text('executorUrl') || null;
  if (kind === 'remote' && !url)
    throw invalidInput(
      '--executor remote needs --executor-url URL (variable BATON_EXECUTOR_URL, config executor_url) of a `baton executor serve`',
    );
  const dockerImage = r.text('dockerImage')?.trim() || null;
  if (kind === 'docker' && !dockerImage)
    throw invalidInput(
      '--executor docker needs an image: --docker-image IMAGE (variable BATON_DOCKER_IMAGE, config docker_image), with node 20+ at /usr/bin/node and /usr/bin/env',
    );
  const dockerEnv = containerEnv(r.list('dockerEnv'), env);
  /** The executor of a choice (a remote agent host, a Docker image), with this run's settings; null: the local one. */
  const executorOf = (choice: ExecutorChoice | null): Executor =>
    choice?.executor === 'remote'
      ? remoteExecutor(choice.executor_url, env, settings.home)
      : choice?.executor === 'docker'
        ? new DockerExecutor(new DockerEngine(env), choice.docker_image, null, dockerEnv)
        : new LocalExecutor();
  const executor = executorOf(
    kind === 'remote' && url
      ? { executor: 'remote', executor_url: url }
      : kind === 'docker' && dockerImage
        ? { executor: 'docker', docker_image: dockerImage }
        : null,
  );
  const maxSessions = r.integer('maxSessions', 20, ...MAX_SESSIONS_RANGE);
  // the first wait of --auto-resume for a limit back with nothing done since (doubling from there: retryWait)
  const retryWaitMs = r.durationMs('retryWait', FIRST_RETRY_WAIT);
  if (retryWaitMs <= 0) throw r.invalid('retryWait', 'must be positive');
  return {
    agentName,
    profile,
    profiles,
    /**
     * The profile of another agent (a re-attached or resumed run's), with this run's --agent-bin (else `lastBin`, the
     * program the workflow last ran with that agent) and --context-window.
     */
    profileOf,
    capacity,
    heartbeatMs,
    /** The stall timeout of an agent of this adapter. */
    stallFor: (adapter: string) => (adapter === 'command' && !stallSet ? null : stallMs),
    executor,
    /**
     * The executor of another choice (the one a resumed workflow last ran on), else this run's own: built as this
     * run's options would build it.
     */
    executorOf: (choice: ExecutorChoice | null) => (choice ? executorOf(choice) : executor),
    /** What this run was given of the agent, its program and its executor (`lastRunChoice` takes the rest). */
    given: runGiven(o, env, settings),
    maxSessions,
    retryWaitMs,
    dockerImage,
    dockerEnv,
    owner: ownerId(hostname()),
    home: settings.home,
  };
}

/**
 * A named agent profile, with `agent_bin` and `context_window` from the settings (checked here, naming their source);
 * without an `agent_bin` setting, `lastBin` when given.
 */
function agentProfile(
  name: string,
  profiles: Record<string, unknown>,
  r: SettingReader,
  lastBin?: string,
): AgentProfile {
  const window = r.text('contextWindow');
  return resolveProfile(
    name,
    {
      agentBin: r.text('agentBin') || lastBin,
      contextWindow:
        window === undefined
          ? undefined
          : String(r.integer('contextWindow', 0, ...CONTEXT_WINDOW_RANGE, 'tokens')),
    },
    profiles,
  );
}

export { driverFor };

export { executorFactory, releaseByRuntime, remoteExecutor };

/**
 * Why a local agent's program cannot start here, or null when it can (a remote or container executor has its own):
 * the one check of it, naming the cause ("was not found", "is not executable: chmod +x PATH").
 */
export function agentUnstartable(
  profile: AgentProfile,
  executor: { runtime: string },
  worktree: string,
  env: NodeJS.ProcessEnv,
): string | null {
  if (executor.runtime !== 'local') return null;
  const s = executableStanding(profile.bin, worktree, env.PATH);
  if ('path' in s) return null;
  return 'notExecutable' in s
    ? `is not executable (${s.notExecutable}: run \`chmod +x ${s.notExecutable}\`)`
    : `was not found (spawn ${profile.bin} ENOENT)`;
}

/**
 * The profile to run, checked before anything starts: a name was given, and a local agent's executable is found
 * (else `invalid_input`, exit 2, with the real cause and how to point at it).
 */
export function assertAgentStartable(
  setup: ReturnType<typeof agentSetup>,
  worktree: string,
  env: NodeJS.ProcessEnv,
): AgentProfile {
  if (!setup.profile) throw invalidInput('baton run needs --agent NAME (variable BATON_AGENT, config agent)');
  const why = agentUnstartable(setup.profile, setup.executor, worktree, env);
  if (why)
    throw invalidInput(
      `cannot start the agent: ${setup.profile.bin} ${why}; install it, or point --agent-bin (variable BATON_AGENT_BIN) or the profile's "bin" at it. Nothing was changed`,
      { bin: setup.profile.bin },
    );
  return setup.profile;
}
