import type { Command } from 'commander';
import { settingReader } from '../../config/settings.js';
import { daemonToken } from '../../config/executor-token.js';
import { BatonError, invalidInput } from '../../core/index.js';
import { localProcessPorts } from '../../executors/local/process-ports.js';
import { isOwnerAlive } from '../../executors/process-identity.js';
import { recoverAtStartup, stopExecutors, type ExecutorRow } from '../../service/runtime/index.js';
import { agentSetup, executorFactory, type AgentFlags } from '../agent-setup.js';
import { emit } from '../output.js';
import type { Runtime } from '../runtime.js';
import { agentOptions, continueRecovered } from '../agent-runs.js';
import { autoResumePolicy, recoveryLine } from '../serve-runtime.js';
import { resumeReasonWords } from '../resumable-words.js';

/** Why a session whose agent is gone cannot resume, in words (startup recovery's reasons). */
const cannotResume: Record<string, string> = {
  not_resumable: resumeReasonWords.not_resumable,
  missing_resume_token: 'no resume token was saved',
};

/**
 * What an executor is, in plain words, as recovery sees it: a row startup recovery kept `ready` for its workspace
 * reads `ready/...` still, but its agent is gone, and the line says so (and whether its session can resume).
 */
export function executorStanding(r: ExecutorRow): string {
  const why = r.error_message;
  if (r.status === 'error') return `error: ${why ?? 'no reason recorded'}`;
  if (r.status === 'stopped')
    return r.session_state === 'ended'
      ? 'session over'
      : `agent gone${why ? ` (${why})` : ''}; the workflow goes on in a new session`;
  if (r.session_state === 'running')
    return r.status === 'starting' ? 'starting its agent' : `running${why ? ` (not checked: ${why})` : ''}`;
  if (r.session_state === 'waiting_for_input')
    return `dead (agent gone); its session can resume${why ? ` (${why})` : ''}`;
  if (r.session_state === 'error')
    return `dead (agent gone); its session cannot resume (${why ? (cannotResume[why] ?? why) : 'no reason recorded'})`;
  return 'dead (agent gone); its session is over';
}

/**
 * One executor in `baton executors list`: id, workflow#session, runtime and status/session_state (columns a script
 * may read), then what it is in words (`executorStanding`).
 */
export const executorLine = (r: ExecutorRow) =>
  `${r.id} ${r.workflow_id}#${r.session_number} ${r.runtime} ${r.status}/${r.session_state}: ${executorStanding(r)}`;

/** `baton executors` (list, stop, recover) and `baton executor` (serve, token): where agents run. */
export function registerExecutorCommands(program: Command, rt: Runtime) {
  const executors = program.command('executors').description('the agent executors (executors_running)');
  executors
    .command('list')
    .description("list executors and their session states (with a server named, the server's)")
    .action(async (_o: unknown, cmd: Command) => {
      const g = rt.globals(cmd);
      // a read: with a server named (BATON_URL), its executors, as every other read shows its workflows
      const client = await rt.open(g);
      try {
        const rows = (await client.executors()).executors;
        emit(rt.io, g.json === true, rows, () => rows.map(executorLine).join('\n') || 'no executors');
      } finally {
        await rt.close();
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
        await service.close();
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
    try {
      const policy = autoResumePolicy(o, rt.env, settings);
      const setup = agentSetup(o, rt.env, settings, null);
      const ports = service.watch?.ports ?? localProcessPorts();
      const report = await recoverAtStartup(service, {
        factory: executorFactory(rt.env, settings.home, setup.dockerImage, setup.dockerEnv),
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
          recoveryLine(report, 'recovery'),
          ...report.executors.map(
            (e) =>
              `  ${e.executor_id} ${e.workflow_id}: ${e.action}, ${e.executor_status}/${e.session_state}${e.reason ? ` (${e.reason})` : ''}`,
          ),
        ].join('\n'),
      );
    } finally {
      await rt.flushMirror();
      await service.close();
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
      'address to bind (one other than 127.0.0.1 needs BATON_EXECUTOR_TOKEN)',
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
        // listened for before the daemon says it is up: a stop sent as soon as it is read still closes it
        const stopped = new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        rt.io.out(
          g.json
            ? JSON.stringify({ url: d.url, token_source: source }) + '\n'
            : `baton executor serve: listening on ${d.url}\n  token: ${source} (print it with \`baton executor token\`)\n`,
        );
        await stopped;
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
