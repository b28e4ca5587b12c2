import type { Command } from 'commander';
import { settingReader, type Settings } from '../../config/settings.js';
import { daemonToken } from '../../config/executor-token.js';
import { BatonError, invalidInput, parseDuration } from '../../core/index.js';
import { TaskLogFiles } from '../../disk/index.js';
import { findExecutable } from '../../executors/local/find-executable.js';
import { localProcessPorts } from '../../executors/local/process-ports.js';
import { isOwnerAlive } from '../../executors/process-identity.js';
import {
  AgentRunner,
  recoverAtStartup,
  stopExecutors,
  type AgentProfile,
  type AutoResumePolicy,
  type Executor,
  type ExecutorRow,
} from '../../service/runtime/index.js';
import type { BatonService } from '../../service/index.js';
import { agentSetup, driverFor, executorFactory, type AgentFlags } from '../agent-setup.js';
import { emit } from '../output.js';
import { runProgress } from '../run-progress.js';
import { batonCommand, commandLine } from '../../integrations/init/hook-command.js';
import { parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';

export const agentOptions = (cmd: Command) =>
  cmd
    .option(
      '--agent <name>',
      'agent profile: claude-code, codex, command, or a name from baton.config.json (env BATON_AGENT, config agent)',
    )
    .option('--agent-bin <path>', 'the agent executable (env BATON_AGENT_BIN, config agent_bin)')
    .option(
      '--context-window <tokens>',
      "the model's context window (env BATON_CONTEXT_WINDOW, config context_window)",
    )
    .option(
      '--warn-at <ratio>',
      'capacity warning threshold (env BATON_CAPACITY_WARN, config warn_at, default 0.7)',
    )
    .option(
      '--pause-at <ratio>',
      'capacity auto-pause threshold (env BATON_CAPACITY_PAUSE, config pause_at, default 0.85)',
    )
    .option(
      '--heartbeat <duration>',
      'heartbeat interval of running sessions (env BATON_HEARTBEAT, config heartbeat, default 10s)',
    )
    .option(
      '--executor <kind>',
      'local | remote | docker (env BATON_EXECUTOR, config executor, default local)',
    )
    .option(
      '--executor-url <url>',
      'a `baton executor serve` agent host (env BATON_EXECUTOR_URL, config executor_url)',
    )
    .option(
      '--docker-image <image>',
      'the image of --executor docker, with node 20+ at /usr/bin/node (env BATON_DOCKER_IMAGE, config docker_image)',
    );

/** What every agent run of this process shares: the lease identity, the task logs, how agents reach Baton. */
export function runShared(
  service: BatonService,
  setup: ReturnType<typeof agentSetup>,
  settings: Settings,
  env: NodeJS.ProcessEnv,
) {
  return {
    ports: service.watch?.ports ?? localProcessPorts(),
    factory: executorFactory(env, settings.home, setup.dockerImage),
    logs: service.options.logs ?? new TaskLogFiles(settings.runsDir),
    batonCommand: commandLine(batonCommand(env), []),
    env: agentEnv(settings),
    owner: setup.owner,
  };
}

/** What every run of this process gives the agent runner alike: the agent, where it runs, the runtime settings. */
function runBasics(
  setup: ReturnType<typeof agentSetup>,
  shared: ReturnType<typeof runShared>,
  profile: AgentProfile,
  executor: Executor,
) {
  return {
    profile,
    driver: driverFor(profile),
    executor,
    capacity: setup.capacity,
    heartbeatMs: setup.heartbeatMs,
    maxSessions: setup.maxSessions,
    historyBudget: 2000,
    owner: shared.owner,
    env: shared.env,
    logs: shared.logs,
    batonCommand: shared.batonCommand,
  };
}

/** What an agent needs to reach the same Baton store with `baton ...` from inside its task. */
const agentEnv = (settings: Settings): Record<string, string> => ({
  BATON_HOME: settings.home,
  BATON_DATABASE_URL: settings.database,
});

/** Follows re-attached remote runs and continues workflows the recovery policy resumes (in `baton serve`). */
export async function continueRecovered(
  service: BatonService,
  report: Awaited<ReturnType<typeof recoverAtStartup>>,
  setup: ReturnType<typeof agentSetup>,
  settings: Settings,
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
  log: (l: string) => void,
) {
  const runner = new AgentRunner(service);
  const shared = runShared(service, setup, settings, env);
  const runs: Promise<unknown>[] = [];
  for (const ex of report.executors) {
    if (!ex.auto_resume) continue;
    const att = report.attached.find((a) => a.row.id === ex.executor_id);
    const row = att?.row;
    const agentName = row?.agent ?? setup.agentName;
    if (!agentName) continue;
    const profile = setup.profileOf(agentName);
    // A re-attached run goes on where it runs (its agent host, its container); the rest on the configured executor.
    const executor = (row && row.runtime !== 'local' ? shared.factory.forRow(row) : null) ?? setup.executor;
    runs.push(
      runner
        .run(
          { workflowId: ex.workflow_id },
          {
            ...runBasics(setup, shared, profile, executor),
            maxTasks: null,
            maxDurationMs: null,
            autoResume: false,
            ownership: {
              ports: shared.ports,
              factory: shared.factory,
              kind: 'serve',
              command: `baton serve (auto-resume, agent ${profile.name})`,
              retry: `baton run -w ${ex.workflow_id} --agent ${profile.name}`,
              takeOver: false,
            },
            log,
          },
          att ? { proc: att.proc, taskId: att.taskId } : undefined,
        )
        .catch((e: Error) => log(`auto-resume of ${ex.workflow_id} failed: ${e.message}`)),
    );
  }
  return Promise.all(runs);
}

type RunFlags = AgentFlags & {
  workflow?: string;
  maxTasks?: string;
  maxDuration?: string;
  autoResume?: boolean;
  takeOver?: boolean;
  verbose?: boolean;
};

/** The command a refused user types again: the same run, with the workflow named. */
const retryCommand = (id: string, o: RunFlags) =>
  [
    'baton run',
    `-w ${id}`,
    o.agent ? `--agent ${o.agent}` : null,
    o.agentBin ? `--agent-bin ${o.agentBin}` : null,
  ]
    .filter(Boolean)
    .join(' ');

export function registerRunCommands(program: Command, rt: Runtime) {
  agentOptions(
    program
      .command('run')
      .description(
        "run an agent CLI through the workflow's runnable tasks; after an exhaustion pause it goes on in a fresh agent session with the compiled context",
      )
      .option('-w, --workflow <id>', 'the workflow (default: the one of the current worktree)')
      .option('--max-tasks <n>', 'pause (trigger task_complete) after this many tasks')
      .option('--max-duration <duration>', 'pause (trigger timeout) once the workflow has run this long')
      .option(
        '--max-sessions <n>',
        'stop after this many sessions in this run (env BATON_MAX_SESSIONS, config max_sessions, default 20); each exhaustion pause starts a new one',
      )
      .option('--auto-resume', 'after a usage limit with a reset time, wait for it and resume')
      .option(
        '--take-over',
        'take the workflow from its current driver (stops it first, or waits for its lease to expire)',
      )
      .option('--verbose', "stream the agent's own output"),
  ).action(async (o: RunFlags, cmd: Command) => {
    const g = rt.globals(cmd);
    const settings = rt.settings(g);
    const service = await rt.openService(settings);
    const progress = runProgress({
      io: rt.io,
      json: g.json === true,
      verbose: o.verbose === true,
      tty:
        !g.json && process.stderr.isTTY
          ? { write: (t) => void process.stderr.write(t), columns: process.stderr.columns ?? 100 }
          : null,
    });
    // Ctrl-C (or SIGTERM) stops the agent and leaves the workflow interrupted and resumable; a second one exits now.
    const abort = new AbortController();
    const onSignal = (sig: NodeJS.Signals) => {
      if (abort.signal.aborted) process.exit(130);
      abort.abort(sig);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const state = await service.resolve(rt.ref(o.workflow));
      const setup = agentSetup(o, rt.env, settings, state.worktree);
      if (!setup.profile)
        throw invalidInput('baton run needs --agent NAME (variable BATON_AGENT, config agent)');
      if (
        setup.executor.runtime === 'local' &&
        !findExecutable(setup.profile.bin, state.worktree, rt.env.PATH)
      )
        throw invalidInput(
          `cannot start the agent: ${setup.profile.bin} was not found (spawn ${setup.profile.bin} ENOENT); install it, or point --agent-bin (variable BATON_AGENT_BIN) or the profile's "bin" at it. Nothing was changed`,
          { bin: setup.profile.bin },
        );
      // Engine, image, worktree: checked before any task starts or anything is created.
      await setup.executor.preflight?.(state.worktree);
      const shared = runShared(service, setup, settings, rt.env);
      const report = await new AgentRunner(service).run(
        { workflowId: state.id },
        {
          ...runBasics(setup, shared, setup.profile, setup.executor),
          maxTasks: o.maxTasks ? parseNumber(o.maxTasks, '--max-tasks', { int: true, min: 1 }) : null,
          maxDurationMs: o.maxDuration ? parseDuration(o.maxDuration, '--max-duration') : null,
          autoResume: o.autoResume === true,
          ownership: {
            ports: shared.ports,
            factory: shared.factory,
            kind: 'run',
            command: `baton run --agent ${setup.profile.name}`,
            retry: retryCommand(state.id, o),
            takeOver: o.takeOver === true,
          },
          verbose: o.verbose === true,
          onEvent: progress.onEvent,
          log: progress.log,
          signal: abort.signal,
        },
      );
      progress.finish(report);
      // A failed task is a failed run: exit 1 (the cause was printed with the task).
      if (report.failed) rt.exitCode = 1;
      if (abort.signal.aborted) rt.exitCode = abort.signal.reason === 'SIGTERM' ? 143 : 130;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      progress.stop();
      await rt.flushMirror();
      await service.store.close();
    }
  });

  const executors = program.command('executors').description('the agent executors (executors_running)');
  executors
    .command('list')
    .description('list executors and their session states')
    .action(async (_o: unknown, cmd: Command) => {
      const g = rt.globals(cmd);
      const service = await rt.openService(rt.settings(g));
      const store = service.store;
      try {
        const rows = (await store.executors?.list()) ?? [];
        emit(
          rt.io,
          g.json === true,
          rows,
          () =>
            rows
              .map(
                (r: ExecutorRow) =>
                  `${r.id} ${r.workflow_id}#${r.session_number} ${r.runtime} ${r.status}/${r.session_state}${r.error_message ? ` (${r.error_message})` : ''}`,
              )
              .join('\n') || 'no executors',
        );
      } finally {
        await rt.flushMirror();
        await store.close();
      }
    });
  executors
    .command('stop [ids...]')
    .description(
      'stop executors: their agents stop and what Baton created for them (a Docker container) is removed, nothing else',
    )
    .option('-w, --workflow <id>', "every executor of this workflow's sessions")
    .option('--all', 'every executor not already stopped')
    .action(async (ids: string[], o: { workflow?: string; all?: boolean }, cmd: Command) => {
      const g = rt.globals(cmd);
      if (!ids.length && !o.workflow && !o.all)
        throw invalidInput(
          'name the executors to stop (ids from `baton executors list`), or -w WORKFLOW, or --all',
        );
      const service = await rt.openService(rt.settings(g));
      try {
        const out = await stopExecutors(service, { ids, workflowId: o.workflow, all: o.all === true });
        emit(
          rt.io,
          g.json === true,
          out,
          () =>
            out
              .map(
                (x) =>
                  `${x.executor_id} ${x.runtime}${x.container_id ? ` container ${x.container_id.slice(0, 12)}` : ''}: ${x.error ?? x.status}${x.hint ? `\n  ${x.hint}` : ''}`,
              )
              .join('\n') || 'no executors to stop',
        );
        const failed = out.filter((x) => x.error);
        if (failed.length)
          throw new BatonError(
            'unavailable',
            `${failed.length} executor(s) could not be stopped: ${failed.map((x) => `${x.executor_id}: ${x.error}`).join('; ')}`,
          );
      } finally {
        await rt.flushMirror();
        await service.store.close();
      }
    });
  agentOptions(
    executors
      .command('recover')
      .description('startup recovery now (baton serve runs it at start): mark, reconnect and resume sessions')
      .option('--auto-resume <policy>', 'none | waiting | all (env BATON_AUTO_RESUME, default waiting)'),
  ).action(async (o: AgentFlags & { autoResume?: string }, cmd: Command) => {
    const g = rt.globals(cmd);
    const settings = rt.settings(g);
    const service = await rt.openService(settings);
    const store = service.store;
    try {
      const policy: AutoResumePolicy = settingReader(o, rt.env, settings).oneOf(
        'autoResume',
        ['none', 'waiting', 'all'] as const,
        'waiting',
      );
      const setup = agentSetup(o, rt.env, settings, null);
      const ports = service.watch?.ports ?? localProcessPorts();
      const report = await recoverAtStartup(service, {
        factory: executorFactory(rt.env, settings.home, setup.dockerImage),
        autoResume: policy,
        isOwnerAlive: (owner) => isOwnerAlive(owner, ports.hostname),
        leases: { ports },
      });
      await continueRecovered(service, report, setup, settings, o, rt.env, (l) =>
        g.json ? undefined : rt.io.err(`baton recover: ${l}\n`),
      );
      const { attached: _a, ...printable } = report;
      emit(rt.io, g.json === true, printable, () =>
        [
          `recovered ${report.executors.length} executors in ${report.ms} ms (${report.interrupted} workflows interrupted)`,
          ...report.executors.map(
            (e) =>
              `  ${e.executor_id} ${e.workflow_id}: ${e.action}, ${e.executor_status}/${e.session_state}${e.reason ? ` (${e.reason})` : ''}`,
          ),
        ].join('\n'),
      );
    } finally {
      await rt.flushMirror();
      await store.close();
    }
  });

  const executor = program.command('executor').description('the remote agent host');
  executor
    .command('serve')
    .description(
      'run an agent host (HTTP: health, capabilities, launch, resume, stop, events) that outlives Baton servers; every request needs its token',
    )
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; another needs BATON_EXECUTOR_TOKEN)',
      '127.0.0.1',
    )
    .option(
      '--port <port>',
      'port, 0 for any free one (env BATON_EXECUTOR_PORT, config executor_port, default 7430)',
    )
    .option(
      '--allow-host <names>',
      'extra Host names it answers to, comma separated (env BATON_EXECUTOR_ALLOWED_HOSTS, config executor_allowed_hosts)',
    )
    .option(
      '--max-output <chars>',
      "characters of each run's output kept (the last ones; env BATON_EXECUTOR_MAX_OUTPUT, config executor_max_output, default 4194304)",
    )
    .action(
      async (o: { host: string; port?: string; allowHost?: string; maxOutput?: string }, cmd: Command) => {
        const g = rt.globals(cmd);
        const settings = rt.settings(g);
        const home = settings.home;
        const { startExecutorDaemon, DEFAULT_MAX_OUTPUT } =
          await import('../../executors/remote/executor-daemon.js');
        const r = settingReader(
          { executorPort: o.port, executorMaxOutput: o.maxOutput, executorAllowedHosts: o.allowHost },
          rt.env,
          settings,
        );
        const port = r.integer('executorPort', 7430, 0, 65535);
        const maxOutput = r.integer('executorMaxOutput', DEFAULT_MAX_OUTPUT, 1024, 1 << 30, 'characters');
        const allowedHosts = r.list('executorAllowedHosts');
        const { token, source } = daemonToken(rt.env, home, o.host);
        const d = await startExecutorDaemon({ host: o.host, port, token, allowedHosts, maxOutput });
        rt.io.out(
          g.json
            ? JSON.stringify({ url: d.url, token_source: source }) + '\n'
            : `baton executor serve: listening on ${d.url}\n  token: ${source} (print it with \`baton executor token\`)\n`,
        );
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await d.close();
      },
    );

  executor
    .command('token')
    .description(
      "print the executor daemon's token: BATON_EXECUTOR_TOKEN, else $BATON_HOME/executor-token (created on first use, mode 0600)",
    )
    .action(async (_o: unknown, cmd: Command) => {
      const g = rt.globals(cmd);
      const { token, source } = daemonToken(rt.env, rt.settings(g).home, '127.0.0.1');
      rt.io.out(g.json ? JSON.stringify({ token, source }) : token);
    });
}
