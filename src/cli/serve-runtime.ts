import { BATON_ACTOR } from '../core/index.js';
import { counted } from '../core/counted.js';
import { settingReader, type Settings } from '../config/settings.js';
import { isOwnerAlive } from '../executors/process-identity.js';
import { localProcessPorts } from '../executors/local/process-ports.js';
import type { BatonService } from '../service/index.js';
import {
  HeartbeatMonitor,
  recoverAtStartup,
  type AutoResumePolicy,
  type RecoveryReport,
  type Worker,
} from '../service/runtime/index.js';
import { agentSetup, executorFactory, type AgentFlags } from './agent-setup.js';
import { continueRecovered, crashFollower } from './agent-runs.js';

export interface ServeRuntimeFlags extends AgentFlags {
  autoResume?: string;
  heartbeatTimeout?: string;
}

const policies = ['none', 'waiting', 'all'] as const;

/**
 * What startup recovery found and did, in one line of the server's log (and `baton executors recover`'s first): the agent sessions a Baton process left
 * running (executor rows still `starting`/`ready`), then what became of them: `startup recovery: found 2 agent
 * sessions left running; 1 workflow interrupted, 0 re-attached (12 ms)`.
 */
export function recoveryLine(
  report: Pick<RecoveryReport, 'executors' | 'interrupted' | 'attached' | 'ms'>,
  /** What ran it: `baton executors recover` says `recovery`. */
  label = 'startup recovery',
) {
  const found = report.executors.length;
  if (!found) return `${label}: found no agent sessions left running (${report.ms} ms)`;
  const ended = report.executors.filter(
    (e) => e.executor_status === 'stopped' && e.session_state === 'ended',
  ).length;
  const live = report.executors.filter((e) => e.action === 'skipped_live_owner').length;
  const unchecked = report.executors.filter((e) => e.action === 'unchecked').length;
  const done = [
    `${counted(report.interrupted, 'workflow')} interrupted`,
    `${report.attached.length} re-attached`,
    ...(ended
      ? [`${ended} closed (${ended === 1 ? 'its' : 'their'} workflow finished or went on to a later session)`]
      : []),
    ...(live ? [`${live} left to the Baton process still running ${live === 1 ? 'it' : 'them'}`] : []),
    ...(unchecked
      ? [`${unchecked} not checked (${unchecked === 1 ? 'its host' : 'their hosts'} unreachable from here)`]
      : []),
  ];
  return `${label}: found ${counted(found, 'agent session')} left running; ${done.join(', ')} (${report.ms} ms)`;
}

/**
 * The agent runtime's `baton serve` settings: option > environment variable > `$BATON_HOME/config.json` >
 * default. `auto_resume` (none | waiting | all, default waiting) and `heartbeat_timeout` (default 60s).
 */
export function resolveServeRuntime(
  o: ServeRuntimeFlags,
  env: NodeJS.ProcessEnv,
  settings: Pick<Settings, 'configFiles'>,
) {
  const r = settingReader(o, env, settings);
  const heartbeatTimeoutMs = r.durationMs('heartbeatTimeout', '60s');
  if (heartbeatTimeoutMs <= 0) throw r.invalid('heartbeatTimeout', 'must be positive');
  return { autoResume: autoResumePolicy(o, env, settings), heartbeatTimeoutMs };
}

/** Which recovered sessions startup recovery resumes (`baton serve`, `baton executors recover`): default waiting. */
export function autoResumePolicy(
  o: { autoResume?: string },
  env: NodeJS.ProcessEnv,
  settings: Pick<Settings, 'configFiles'>,
): AutoResumePolicy {
  return settingReader(o, env, settings).oneOf('autoResume', policies, 'waiting');
}

/**
 * The agent runtime inside `baton serve`: startup recovery before the server reports ready, then the sessions the
 * policy resumes run in the server, and the heartbeat monitor interrupts silent sessions on a timer.
 */
export function serveRuntime(
  service: BatonService,
  settings: Settings,
  o: ServeRuntimeFlags,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
) {
  const { autoResume, heartbeatTimeoutMs } = resolveServeRuntime(o, env, settings);
  const setup = agentSetup(o, env, settings, null);
  const factory = executorFactory(env, settings.home, setup.dockerImage, setup.dockerEnv);
  let report: RecoveryReport | null = null;
  const monitor = new HeartbeatMonitor(service, {
    silenceMs: heartbeatTimeoutMs,
    everyMs: Math.max(100, Math.min(10_000, Math.floor(heartbeatTimeoutMs / 4))),
    factory,
    onSweep: (r) => {
      if (r.silent.length)
        log(
          `heartbeat: ${r.silent.length} silent session(s); interrupted ${r.interrupted.join(', ') || 'none'}`,
        );
    },
    onError: (e) => log(`heartbeat monitor: ${e.message}`),
  });
  let runs: Promise<unknown> = Promise.resolve();
  return {
    autoResume,
    heartbeatTimeoutMs,
    /** Startup recovery: run before `/readyz` answers ready. */
    async recover(): Promise<RecoveryReport | null> {
      if (!service.store.executors) return null;
      const ports = service.watch?.ports ?? localProcessPorts();
      // what the server does on its own (recovery, the sessions it resumes, its heartbeat monitor) is Baton's
      report = await service.runner.actingAs(BATON_ACTOR, () =>
        recoverAtStartup(service, {
          factory,
          autoResume,
          isOwnerAlive: (owner) => isOwnerAlive(owner, ports.hostname),
          // A `baton run` alive beside this server keeps its workflow: the lease says who drives what.
          leases: { ports },
        }),
      );
      log(recoveryLine(report));
      return report;
    },
    /**
     * After ready: follow re-attached runs, resume what the policy says (a workflow the server's own worker takes from
     * its queue is left to it), and start the heartbeat monitor.
     */
    start(worker: Worker | null = null): void {
      if (!service.store.executors) return;
      const takes = worker ? (id: string) => worker.takes(id) : undefined;
      // what it cannot do (a store that fails under it) is said, never an unhandled rejection that ends the server
      if (report)
        runs = continueRecovered(service, report, setup, settings, o, env, log, takes).catch((e: Error) =>
          log(`recovery after startup stopped: ${e.message}`),
        );
      // A driver that dies while the server runs (a `baton run` SIGKILLed beside it) is noticed by the crash watch
      // (the heartbeat monitor, any read); a run it left going on an agent host is followed here as at startup.
      if (autoResume !== 'none')
        service.watch?.followWith(crashFollower(service, setup, settings, env, log, takes));
      // its timer's sweeps act as Baton too
      service.runner.actingAs(BATON_ACTOR, () => monitor.start());
    },
    async stop(): Promise<void> {
      service.watch?.followWith(null);
      await monitor.stop();
      void runs;
    },
  };
}
