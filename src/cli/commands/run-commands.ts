import type { Command } from 'commander';
import { hostname } from 'node:os';
import { daemonToken } from '../../config/executor-token.js';
import { listSetting } from '../../config/request-guard.js';
import { BatonError, invalidInput, parseDuration } from '../../core/index.js';
import { isOwnerAlive } from '../../executors/process-identity.js';
import {
  AgentRunner,
  recoverAtStartup,
  stopExecutors,
  type AutoResumePolicy,
} from '../../service/runtime/index.js';
import type { BatonService } from '../../service/index.js';
import {
  agentSetup,
  driverFor,
  executorFactory,
  openLocalService,
  profileFor,
  type AgentFlags,
} from '../agent-setup.js';
import { emit } from '../output.js';
import { oneOf, parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';

export const agentOptions = (cmd: Command) =>
  cmd
    .option(
      '--agent <name>',
      'agent profile: claude-code, codex, command, or a name from baton.config.json (env BATON_AGENT)',
    )
    .option('--agent-bin <path>', 'the agent executable (env BATON_AGENT_BIN)')
    .option('--context-window <tokens>', "the model's context window (env BATON_CONTEXT_WINDOW)")
    .option('--warn-at <ratio>', 'capacity warning threshold (env BATON_CAPACITY_WARN, default 0.7)')
    .option('--pause-at <ratio>', 'capacity auto-pause threshold (env BATON_CAPACITY_PAUSE, default 0.85)')
    .option(
      '--heartbeat <duration>',
      'heartbeat interval of running sessions (env BATON_HEARTBEAT, default 10s)',
    )
    .option(
      '--executor <kind>',
      'local | remote | docker (env BATON_EXECUTOR, config executor, default local)',
    )
    .option('--executor-url <url>', 'a `baton executor serve` agent host (env BATON_EXECUTOR_URL)')
    .option(
      '--docker-image <image>',
      'the image of --executor docker, with node 20+ at /usr/bin/node (env BATON_DOCKER_IMAGE, config docker_image)',
    );

/** Follows re-attached remote runs and continues workflows the recovery policy resumes. */
export async function continueRecovered(
  service: BatonService,
  report: Awaited<ReturnType<typeof recoverAtStartup>>,
  setup: ReturnType<typeof agentSetup>,
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
  log: (l: string) => void,
) {
  const runner = new AgentRunner(service);
  const factory = executorFactory(env, setup.home, setup.dockerImage);
  const runs: Promise<unknown>[] = [];
  for (const ex of report.executors) {
    if (!ex.auto_resume) continue;
    const att = report.attached.find((a) => a.row.id === ex.executor_id);
    const row = att?.row;
    const agentName = row?.agent ?? o.agent ?? env.BATON_AGENT;
    if (!agentName) continue;
    const profile = profileFor(agentName, setup.profiles, o, env);
    // A re-attached run goes on where it runs (its agent host, its container); the rest on the configured executor.
    const executor = (row && row.runtime !== 'local' ? factory.forRow(row) : null) ?? setup.executor;
    runs.push(
      runner
        .run(
          { workflowId: ex.workflow_id },
          {
            profile,
            driver: driverFor(profile),
            executor,
            capacity: setup.capacity,
            heartbeatMs: setup.heartbeatMs,
            maxTasks: null,
            maxDurationMs: null,
            autoResume: false,
            historyBudget: 2000,
            owner: setup.owner,
            log,
          },
          att ? { proc: att.proc, taskId: att.taskId } : undefined,
        )
        .catch((e: Error) => log(`auto-resume of ${ex.workflow_id} failed: ${e.message}`)),
    );
  }
  return Promise.all(runs);
}

export function registerRunCommands(program: Command, rt: Runtime) {
  agentOptions(
    program
      .command('run')
      .description("run an agent CLI through the workflow's runnable tasks, one driver session per task")
      .option('-w, --workflow <id>', 'the workflow (default: the one of the current worktree)')
      .option('--max-tasks <n>', 'pause (trigger task_complete) after this many tasks')
      .option('--max-duration <duration>', 'pause (trigger timeout) once the workflow has run this long')
      .option('--auto-resume', 'after a usage limit with a reset time, wait for it and resume'),
  ).action(
    async (
      o: AgentFlags & { workflow?: string; maxTasks?: string; maxDuration?: string; autoResume?: boolean },
      cmd: Command,
    ) => {
      const g = rt.globals(cmd);
      const settings = rt.settings(g);
      const { store, service } = await openLocalService(settings, rt.env);
      try {
        const state = await service.resolve(rt.ref(o.workflow));
        const setup = agentSetup(o, rt.env, settings, state.worktree);
        if (!setup.profile) throw new Error('baton run needs --agent NAME (variable BATON_AGENT)');
        // Engine, image, worktree: checked before any task starts or anything is created.
        await setup.executor.preflight?.(state.worktree);
        const report = await new AgentRunner(service).run(
          { workflowId: state.id },
          {
            profile: setup.profile,
            driver: driverFor(setup.profile),
            executor: setup.executor,
            capacity: setup.capacity,
            heartbeatMs: setup.heartbeatMs,
            maxTasks: o.maxTasks ? parseNumber(o.maxTasks, '--max-tasks', { int: true, min: 1 }) : null,
            maxDurationMs: o.maxDuration ? parseDuration(o.maxDuration, '--max-duration') : null,
            autoResume: o.autoResume === true,
            historyBudget: 2000,
            owner: setup.owner,
            log: (l) => (g.json ? undefined : rt.io.err(`baton run: ${l}\n`)),
          },
        );
        emit(rt.io, g.json === true, report, () =>
          [
            `workflow ${report.workflow_id} is ${report.status}${report.pause_trigger && report.status === 'paused' ? ` (trigger ${report.pause_trigger})` : ''}`,
            ...report.tasks.map((t) => `  ${t.id}: ${t.outcome}`),
            ...(report.fallbacks.length ? [`fallbacks: ${report.fallbacks.join('; ')}`] : []),
            ...(report.usage_limit
              ? [`usage limit; resets at ${report.usage_limit.resets_at ?? 'unknown'}`]
              : []),
          ].join('\n'),
        );
      } finally {
        await store.close();
      }
    },
  );

  const executors = program.command('executors').description('the agent executors (executors_running)');
  executors
    .command('list')
    .description('list executors and their session states')
    .action(async (_o: unknown, cmd: Command) => {
      const g = rt.globals(cmd);
      const { store } = await openLocalService(rt.settings(g), rt.env);
      try {
        const rows = (await store.executors?.list()) ?? [];
        emit(
          rt.io,
          g.json === true,
          rows,
          () =>
            rows
              .map(
                (r) =>
                  `${r.id} ${r.workflow_id}#${r.session_number} ${r.runtime} ${r.status}/${r.session_state}${r.error_message ? ` (${r.error_message})` : ''}`,
              )
              .join('\n') || 'no executors',
        );
      } finally {
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
      const { store, service } = await openLocalService(rt.settings(g), rt.env);
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
        await store.close();
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
    const { store, service } = await openLocalService(settings, rt.env);
    try {
      const policy = oneOf(
        o.autoResume ?? rt.env.BATON_AUTO_RESUME ?? 'waiting',
        ['none', 'waiting', 'all'] as const,
        '--auto-resume (variable BATON_AUTO_RESUME)',
      ) as AutoResumePolicy;
      const setup = agentSetup(o, rt.env, settings, null);
      const report = await recoverAtStartup(service, {
        factory: executorFactory(rt.env, settings.home, setup.dockerImage),
        autoResume: policy,
        isOwnerAlive: (owner) => isOwnerAlive(owner, hostname()),
      });
      await continueRecovered(service, report, setup, o, rt.env, (l) =>
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
    .option('--port <port>', 'port, 0 for any free one (env BATON_EXECUTOR_PORT, default 7430)')
    .option(
      '--allow-host <names>',
      'extra Host names it answers to, comma separated (env BATON_EXECUTOR_ALLOWED_HOSTS)',
    )
    .option(
      '--max-output <chars>',
      "characters of each run's output kept (the last ones; env BATON_EXECUTOR_MAX_OUTPUT, default 4194304)",
    )
    .action(
      async (o: { host: string; port?: string; allowHost?: string; maxOutput?: string }, cmd: Command) => {
        const g = rt.globals(cmd);
        const home = rt.settings(g).home;
        const { startExecutorDaemon, DEFAULT_MAX_OUTPUT } =
          await import('../../executors/remote/executor-daemon.js');
        const port = parseNumber(
          o.port ?? rt.env.BATON_EXECUTOR_PORT ?? '7430',
          '--port (variable BATON_EXECUTOR_PORT)',
          { int: true, min: 0, max: 65535 },
        );
        const maxOutput = parseNumber(
          o.maxOutput ?? rt.env.BATON_EXECUTOR_MAX_OUTPUT ?? String(DEFAULT_MAX_OUTPUT),
          '--max-output (variable BATON_EXECUTOR_MAX_OUTPUT)',
          { int: true, min: 1024 },
        );
        const allowedHosts = listSetting(o.allowHost ?? rt.env.BATON_EXECUTOR_ALLOWED_HOSTS);
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
