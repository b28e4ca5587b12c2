import type { Command } from 'commander';
import { BATON_ACTOR, lastRunChoice } from '../core/index.js';
import type { Settings } from '../config/settings.js';
import { TaskLogFiles } from '../disk/index.js';
import { failed } from '../extraction/rules/errors/failure.js';
import { localProcessPorts } from '../executors/local/process-ports.js';
import {
  AgentRunner,
  recoverAtStartup,
  type AgentProfile,
  type AttachedRun,
  type CrashFollower,
  type Executor,
} from '../service/runtime/index.js';
import type { BatonService } from '../service/index.js';
import { agentSetup, agentUnstartable, driverFor, executorFactory, type AgentFlags } from './agent-setup.js';
import { batonCommand, commandLine } from '../integrations/init/hook-command.js';

/**
 * Agent runs a process starts besides `baton run`'s own: the agent options every command that runs agents takes,
 * what the runs of one process share, and the runs that continue what startup recovery found (`baton serve`,
 * `baton executors recover`).
 */

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
      '--stall-timeout <duration>',
      'stop an agent that prints nothing this long as hung, and go on with its task (twice a task at most) (env BATON_STALL_TIMEOUT, config stall_timeout, default 30m, for a command agent none; 0: never)',
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
    )
    .option(
      '--docker-env <NAME[=VALUE]>',
      "a variable for the agent in its container, repeatable: NAME takes its value from Baton's environment (env BATON_DOCKER_ENV, config docker_env: comma-separated)",
      (v: string, prev?: string) => (prev ? `${prev},${v}` : v),
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
    factory: executorFactory(env, settings.home, setup.dockerImage, setup.dockerEnv),
    logs: service.options.logs ?? new TaskLogFiles(settings.runsDir),
    batonCommand: commandLine(batonCommand(env), []),
    env: agentEnv(settings),
    owner: setup.owner,
  };
}

/** What every run of this process gives the agent runner alike: the agent, where it runs, the runtime settings. */
export function runBasics(
  setup: ReturnType<typeof agentSetup>,
  shared: ReturnType<typeof runShared>,
  profile: AgentProfile,
  executor: Executor,
) {
  return {
    profile,
    // the last calls the run's summary names are judged as the briefing's errors judge them (one reading)
    driver: driverFor(profile, failed),
    executor,
    capacity: setup.capacity,
    heartbeatMs: setup.heartbeatMs,
    stallMs: setup.stallFor(profile.adapter),
    maxSessions: setup.maxSessions,
    retryWaitMs: setup.retryWaitMs,
    historyBudget: 2000,
    owner: shared.owner,
    env: shared.env,
    logs: shared.logs,
    batonCommand: executor.batonCommand ? commandLine(executor.batonCommand, []) : shared.batonCommand,
  };
}

/** What an agent needs to reach the same Baton store with `baton ...` from inside its task. */
const agentEnv = (settings: Settings): Record<string, string> => ({
  BATON_HOME: settings.home,
  BATON_DATABASE_URL: settings.database,
});

/** What the agent runs of `baton serve` share: the runner, the agents, how to say what happens. */
interface ServerRuns {
  service: BatonService;
  runner: AgentRunner;
  setup: ReturnType<typeof agentSetup>;
  shared: ReturnType<typeof runShared>;
  env: NodeJS.ProcessEnv;
  log: (l: string) => void;
}

export const serverRuns = (
  service: BatonService,
  setup: ReturnType<typeof agentSetup>,
  settings: Settings,
  env: NodeJS.ProcessEnv,
  log: (l: string) => void,
): ServerRuns => ({
  service,
  runner: new AgentRunner(service),
  setup,
  shared: runShared(service, setup, settings, env),
  env,
  log,
});

/**
 * One workflow's run in the server, ready to start (`start` says so and runs it to its end, following first the run
 * `att` re-attached on its agent host; it settles when the run ends), or why its agent cannot run here. The caller
 * says first why the workflow is resumed, then starts it.
 */
type ServerRun = { start: () => Promise<unknown>; executor: Executor } | { refused: string };

export async function serverRun(
  r: ServerRuns,
  workflowId: string,
  sessionNumber: number,
  agent: string,
  att?: AttachedRun,
  /** Only the re-attached run's task, then the workflow pauses (a server that does not auto-resume). */
  attachedTaskOnly = false,
): Promise<ServerRun> {
  const { setup, shared, log } = r;
  const row = att?.row;
  const state = await r.service.runner.load(workflowId);
  // A re-attached run goes on with its agent, where it runs (its agent host, its container); the rest with the
  // server's own settings, else what the workflow last ran with, as `baton run -w` takes it (its agent, program and
  // executor), else the profile the session ran.
  const choice = lastRunChoice(workflowId, state.agent, {
    ...setup.given,
    agent: row?.agent ?? setup.given.agent,
    executor: row?.runtime ?? setup.given.executor,
  });
  const agentName = choice.agent ?? agent;
  let profile;
  try {
    profile = setup.profileOf(agentName, choice.agentBin);
  } catch (e) {
    return {
      refused: `${workflowId} can resume, but not with the agent ${agentName}: ${(e as Error).message}; start \`baton serve --agent <name>\` (with \`--agent-bin <path>\` for a command agent) or run \`baton run -w ${workflowId} --agent <name>\``,
    };
  }
  const executor =
    (row && row.runtime !== 'local' ? shared.factory.forRow(row) : null) ?? setup.executorOf(choice.executor);
  // an agent that cannot start here would fail the task and lose the agent's own session: left as it is, and said
  const worktree = state.worktree;
  const unstartable = att ? null : agentUnstartable(profile, executor, worktree, r.env);
  if (unstartable)
    return {
      refused: `${workflowId} can resume, but its agent cannot start here: ${profile.bin} ${unstartable}; start \`baton serve --agent-bin <path>\` or run \`baton run -w ${workflowId} --agent ${profile.name} --agent-bin <path>\``,
    };
  // what the server does driving the agent is Baton's, as `baton run`'s is (it serves a person's requests as `user`)
  const start = () => {
    log(
      attachedTaskOnly && att
        ? `following ${workflowId} (session ${sessionNumber}, task ${att.taskId}) with ${profile.name} to the end of its task: the workflow pauses after it (auto-resume is none)`
        : `resuming ${workflowId} (session ${sessionNumber}) with ${profile.name}`,
    );
    for (const line of choice.said) log(line);
    return r.service.runner
      .actingAs(BATON_ACTOR, () =>
        r.runner.run(
          { workflowId },
          {
            ...runBasics(setup, shared, profile, executor),
            maxTasks: attachedTaskOnly ? 1 : null,
            maxDurationMs: null,
            autoResume: false,
            ownership: {
              ports: shared.ports,
              factory: shared.factory,
              kind: 'serve',
              command: `baton serve (auto-resume, agent ${profile.name})`,
              retry: `baton run -w ${workflowId} --agent ${profile.name}`,
              takeOver: false,
            },
            log,
          },
          att ? { proc: att.proc, taskId: att.taskId } : undefined,
        ),
      )
      .then((rep) =>
        log(
          `${workflowId}: ${rep.status}${rep.stopped && !rep.stopped.startsWith(rep.status) ? ` (${rep.stopped})` : ''}${rep.next ? `; ${rep.next}` : ''}`,
        ),
      )
      .catch((e: Error) => log(`auto-resume of ${workflowId} failed: ${e.message}`));
  };
  return { start, executor };
}

/**
 * The server's follower of crashes it notices while it runs (a `baton run` SIGKILLed beside it): a run the dead
 * driver left going on an agent host is followed here and the workflow goes on, as startup recovery's re-attached
 * runs are; one this server's worker takes from its queue is left to it.
 */
export function crashFollower(
  service: BatonService,
  setup: ReturnType<typeof agentSetup>,
  settings: Settings,
  env: NodeJS.ProcessEnv,
  log: (l: string) => void,
  workerTakes: (workflowId: string) => Promise<boolean> = async () => false,
): CrashFollower {
  const r = serverRuns(service, setup, settings, env, log);
  return async (workflowId, att) => {
    if (await workerTakes(workflowId))
      return { by: "this server's worker continues it", go: () => undefined };
    const run = await serverRun(r, workflowId, att.row.session_number, att.row.agent, att);
    return 'refused' in run
      ? { by: null, go: () => log(run.refused) }
      : { by: 'this server follows it and goes on with the workflow', go: () => void run.start() };
  };
}

/** Follows re-attached remote runs and continues workflows the recovery policy resumes (in `baton serve`). */
export async function continueRecovered(
  service: BatonService,
  report: Awaited<ReturnType<typeof recoverAtStartup>>,
  setup: ReturnType<typeof agentSetup>,
  settings: Settings,
  o: AgentFlags,
  env: NodeJS.ProcessEnv,
  log: (l: string) => void,
  /** A worker in the same process takes this workflow from its queue (`baton serve --worker`): not resumed twice. */
  workerTakes: (workflowId: string) => Promise<boolean> = async () => false,
) {
  const r = serverRuns(service, setup, settings, env, log);
  const runs: Promise<unknown>[] = [];
  const handled = new Set<string>();
  // a workflow with several executors recovered (one per session that left one) is handled once: by a run still going
  // (re-attached) if there is one, else by its latest session
  const attachedIds = new Set(report.attached.map((a) => a.row.id));
  const order = [...report.executors].sort(
    (a, b) =>
      Number(attachedIds.has(b.executor_id)) - Number(attachedIds.has(a.executor_id)) ||
      b.session_number - a.session_number,
  );
  for (const ex of order) {
    if (handled.has(ex.workflow_id)) continue;
    handled.add(ex.workflow_id);
    if (ex.interrupted && (await workerTakes(ex.workflow_id))) {
      log(`${ex.workflow_id} is queued: this server's worker continues it`);
      continue;
    }
    const att = report.attached.find((a) => a.row.id === ex.executor_id);
    if (!ex.auto_resume && !att) {
      if (ex.interrupted)
        log(
          `${ex.workflow_id} is interrupted and not resumed here${ex.reason ? ` (${ex.reason})` : ''}: continue with \`baton run -w ${ex.workflow_id}\`${ex.reason === 'not_resumable' ? ' (or start the server with `--auto-resume all`: a session that cannot resume its own goes on in a fresh one, with the briefing)' : ''}`,
        );
      continue;
    }
    // A run re-attached while it goes on is followed to the end of its task whatever the policy: it is not resumed
    // (its agent never stopped), and nobody else reads it. Without auto-resume the workflow pauses after that task.
    const run = await serverRun(r, ex.workflow_id, ex.session_number, ex.agent, att, !ex.auto_resume);
    if ('refused' in run) log(run.refused);
    else runs.push(run.start());
  }
  // interrupted before (a run stopped by a signal, a crash noticed by another command): no executor of theirs was
  // recovered here, and they are said too, with what goes on (the first few; a shared store may hold many)
  // (a session recovery closed as over says nothing of its workflow: one interrupted since is named here too)
  const recovered = new Set(
    report.executors
      .filter((e) => !(e.executor_status === 'stopped' && e.session_state === 'ended'))
      .map((e) => e.workflow_id),
  );
  const others: string[] = [];
  for (const w of await service.queries.list({ status: ['interrupted'] }))
    if (!recovered.has(w.id) && !(await workerTakes(w.id))) others.push(w.id);
  for (const id of others.slice(0, 5))
    log(
      `${id} was interrupted before this server started (its crash noticed by another command, or its run stopped) and is not resumed here: continue with \`baton run -w ${id}\``,
    );
  if (others.length > 5)
    log(
      `${others.length - 5} more workflows are interrupted: \`baton list --status interrupted\` lists them`,
    );
  return Promise.all(runs);
}
