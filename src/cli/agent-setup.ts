import { hostname } from 'node:os';
import { driverFor, resolveProfile } from '../agents/runtime/index.js';
import { readAgentProfiles } from '../config/agent-config.js';
import { settingReader, type Settings } from '../config/settings.js';
import { invalidInput, parseDuration, type CapacityPolicy } from '../core/index.js';
import { DockerEngine } from '../executors/docker/engine.js';
import { DockerExecutor } from '../executors/docker/docker-executor.js';
import { executorFactory, releaseByRuntime, remoteExecutor } from '../executors/executor-factory.js';
import { findExecutable } from '../executors/local/find-executable.js';
import { LocalExecutor } from '../executors/local/local-executor.js';
import { ownerId } from '../executors/process-identity.js';
import type { AgentProfile, Executor } from '../service/runtime/index.js';
import { parseNumber } from './parse.js';

export interface AgentFlags {
  agent?: string;
  agentBin?: string;
  contextWindow?: string;
  warnAt?: string;
  pauseAt?: string;
  heartbeat?: string;
  executor?: string;
  executorUrl?: string;
  dockerImage?: string;
}

/** The agent runtime's options: flag > environment variable > default (profiles also come from the config file). */
export function agentSetup(
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
  settings: Settings,
  worktree: string | null,
) {
  const name = o.agent ?? env.BATON_AGENT;
  const profiles = readAgentProfiles(settings.home, worktree);
  const profile: AgentProfile | null = name
    ? resolveProfile(
        name,
        {
          agentBin: o.agentBin ?? env.BATON_AGENT_BIN,
          contextWindow: o.contextWindow ?? env.BATON_CONTEXT_WINDOW,
        },
        profiles,
      )
    : null;
  const capacity = capacityPolicy(o, env);
  const heartbeatMs = parseDuration(
    o.heartbeat ?? env.BATON_HEARTBEAT ?? '10s',
    '--heartbeat / BATON_HEARTBEAT',
  );
  const settingsOf = settingReader({ executor: o.executor, dockerImage: o.dockerImage }, env, settings);
  const kind = settingsOf.oneOf('executor', ['local', 'remote', 'docker'] as const, 'local');
  const url = o.executorUrl ?? env.BATON_EXECUTOR_URL;
  if (kind === 'remote' && !url)
    throw invalidInput(
      '--executor remote needs --executor-url URL (variable BATON_EXECUTOR_URL) of a `baton executor serve`',
    );
  const dockerImage = settingsOf.text('dockerImage')?.trim() || null;
  if (kind === 'docker' && !dockerImage)
    throw invalidInput(
      '--executor docker needs an image: --docker-image IMAGE (variable BATON_DOCKER_IMAGE, config docker_image), with node 20+ at /usr/bin/node and /usr/bin/env',
    );
  const executor: Executor =
    kind === 'remote' && url
      ? remoteExecutor(url, env, settings.home)
      : kind === 'docker'
        ? new DockerExecutor(new DockerEngine(env), dockerImage)
        : new LocalExecutor();
  const sessions = env.BATON_MAX_SESSIONS ?? '20';
  const maxSessions = parseNumber(sessions, '--max-sessions (variable BATON_MAX_SESSIONS)', {
    int: true,
    min: 1,
  });
  return {
    profile,
    profiles,
    capacity,
    heartbeatMs,
    executor,
    maxSessions,
    dockerImage,
    owner: ownerId(hostname()),
    home: settings.home,
  };
}

/** The capacity thresholds: --warn-at / --pause-at > BATON_CAPACITY_WARN / BATON_CAPACITY_PAUSE > 0.7 / 0.85. */
export function capacityPolicy(
  o: Pick<AgentFlags, 'warnAt' | 'pauseAt'>,
  env: NodeJS.ProcessEnv,
): CapacityPolicy {
  const ratio = (v: string | undefined, flag: string, fallback: number) =>
    v === undefined ? fallback : parseNumber(v, flag, { min: 0.01, max: 1 });
  return {
    warnAt: ratio(o.warnAt ?? env.BATON_CAPACITY_WARN, '--warn-at (variable BATON_CAPACITY_WARN)', 0.7),
    pauseAt: ratio(o.pauseAt ?? env.BATON_CAPACITY_PAUSE, '--pause-at (variable BATON_CAPACITY_PAUSE)', 0.85),
  };
}

export const profileFor = (
  name: string,
  profiles: Record<string, unknown>,
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
) =>
  resolveProfile(
    name,
    {
      agentBin: o.agentBin ?? env.BATON_AGENT_BIN,
      contextWindow: o.contextWindow ?? env.BATON_CONTEXT_WINDOW,
    },
    profiles,
  );

export { driverFor };

export { executorFactory, releaseByRuntime, remoteExecutor };

/**
 * The profile to run, checked before anything starts: a name was given, and a local agent's executable is found
 * (else `invalid_input`, exit 2, with the real cause and how to point at it).
 */
export function assertAgentStartable(
  setup: ReturnType<typeof agentSetup>,
  worktree: string,
  env: NodeJS.ProcessEnv,
): AgentProfile {
  if (!setup.profile) throw invalidInput('baton run needs --agent NAME (variable BATON_AGENT)');
  if (setup.executor.runtime === 'local' && !findExecutable(setup.profile.bin, worktree, env.PATH))
    throw invalidInput(
      `cannot start the agent: ${setup.profile.bin} was not found (spawn ${setup.profile.bin} ENOENT); install it, or point --agent-bin (variable BATON_AGENT_BIN) or the profile's "bin" at it. Nothing was changed`,
      { bin: setup.profile.bin },
    );
  return setup.profile;
}
