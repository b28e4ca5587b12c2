import type { Command } from 'commander';
import {
  BATON_ACTOR,
  BatonError,
  lastRunChoice,
  notFound,
  parseDuration,
  type WorkflowState,
} from '../../core/index.js';
import type { Settings } from '../../config/settings.js';
import { AgentRunner } from '../../service/runtime/index.js';
import { agentSetup, assertAgentStartable, runGiven, type AgentFlags } from '../agent-setup.js';
import { agentOptions, runBasics, runShared } from '../agent-runs.js';
import { runProgress } from '../run-progress.js';
import { workflowToDrive } from '../server-database.js';
import { warnWithoutGit } from '../git-warning.js';
import { parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';

/** 128 + the signal's number, as a shell reports a process a signal stopped. */
const exitCodes: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

type RunFlags = AgentFlags & {
  workflow?: string;
  maxTasks?: string;
  maxDuration?: string;
  autoResume?: boolean;
  takeOver?: boolean;
  shareWorktree?: boolean;
  verbose?: boolean;
};

/** The command a refused user types again: the same run, with the workflow named, on the same executor. */
const retryCommand = (id: string, o: RunFlags) =>
  [
    'baton run',
    `-w ${id}`,
    o.agent ? `--agent ${o.agent}` : null,
    o.agentBin ? `--agent-bin ${o.agentBin}` : null,
    o.executor ? `--executor ${o.executor}` : null,
    o.executorUrl ? `--executor-url ${o.executorUrl}` : null,
    o.dockerImage ? `--docker-image ${o.dockerImage}` : null,
    // the same run waits for a limit again, its waits as long
    o.autoResume ? '--auto-resume' : null,
    o.autoResume && o.retryWait ? `--retry-wait ${o.retryWait}` : null,
  ]
    .filter(Boolean)
    .join(' ');

/**
 * No workflow here: `baton run` drives a workflow's tasks, which no agent session of the person's creates for it, so
 * the way is to create one with its tasks (or name one).
 */
function nothingToRun(e: unknown): unknown {
  if (!BatonError.isInstance(e) || e.code !== 'not_found') return e;
  const d = e.details as { worktree?: string; latest?: { id: string; status: string } };
  if (!d.worktree) return e;
  const latest = d.latest ? `; the latest here, ${d.latest.id}, is ${d.latest.status}` : '';
  return notFound(
    `no active workflow for \`baton run\` to drive in ${d.worktree}${latest}: create one with its tasks (\`baton create --title "Add login" --task T1:Schema --task T2:API:T1\`), or pass -w <id>`,
    e.details,
  );
}

/**
 * The flags of this run of the workflow: for what it is not given of the agent the workflow last ran with (the one
 * its crash line names), that run's program and executor (`lastRunChoice`), each said on stderr. `baton run -w <id>`
 * (the command status and the dashboard name) goes on as the run it follows did, not on this machine instead of its
 * container.
 */
function lastRun(rt: Runtime, o: RunFlags, settings: Settings, state: WorkflowState): RunFlags {
  const c = lastRunChoice(state.id, state.agent, runGiven(o, rt.env, settings));
  for (const line of c.said) rt.io.err(`baton: ${line}`);
  const on = c.executor;
  const where =
    on?.executor === 'docker'
      ? { executor: 'docker', dockerImage: on.docker_image }
      : on?.executor === 'remote'
        ? { executor: 'remote', executorUrl: on.executor_url }
        : {};
  return { ...o, agent: c.agent ?? undefined, agentBin: c.agentBin, ...where };
}

export function registerRunCommands(program: Command, rt: Runtime) {
  agentOptions(
    program
      .command('run')
      .description(
        "run an agent CLI through the workflow's runnable tasks; after an exhaustion pause it goes on in a fresh agent session with the compiled context",
      )
      .option('-w, --workflow <id>', 'the workflow (default: the one of the current worktree)')
      .option('--max-tasks <n>', 'pause (trigger task_complete) after this many tasks')
      .option(
        '--max-duration <duration>',
        'pause (trigger timeout) once this run has gone on this long (counted from when it starts)',
      )
      .option(
        '--max-sessions <n>',
        'stop after this many sessions in this run (env BATON_MAX_SESSIONS, config max_sessions, default 20); each exhaustion pause starts a new one',
      )
      .option(
        '--auto-resume',
        'after a usage limit, wait for its reset and resume (one with no reset time or back with nothing done, or an API failure that passes: a growing wait, 12 at most)',
      )
      .option(
        '--retry-wait <duration>',
        "the first of --auto-resume's growing waits, doubling from there (env BATON_RETRY_WAIT, config retry_wait, default 1m)",
      )
      .option(
        '--take-over',
        'take the workflow from its current driver (stops it first, or waits for its lease to expire)',
      )
      .option(
        '--share-worktree',
        'run even though another workflow of this worktree has a driver (both agents edit the same files; said on stderr)',
      )
      .option('--verbose', "stream the agent's own output"),
  ).action(async (o: RunFlags, cmd: Command) => {
    // `--max-duration` counts from here: the command's start, its set-up included
    const startedAt = Date.now();
    const g = rt.globals(cmd);
    // what Baton does driving the agent is Baton's in the event log; what the agent does, the agent's
    const settings = rt.settings(g, { actor: BATON_ACTOR });
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
    // Ctrl-C (or SIGTERM, or SIGHUP: the terminal closed) stops the agent and leaves the workflow interrupted and
    // resumable; a second one exits now. The agent leads its own process group, so the terminal's signals reach
    // Baton only: Baton stops it.
    const abort = new AbortController();
    const onSignal = (sig: NodeJS.Signals) => {
      if (abort.signal.aborted) {
        // said, as the run stopping whole would say its end: what is left behind and what takes care of it
        rt.io.err(
          `baton: ${sig} again: exiting now, before the agent is stopped and the workflow marked interrupted; the agent may still run: the next baton command (\`baton status\`) finds the run gone, stops the agent and interrupts the workflow`,
        );
        process.exit(exitCodes[sig] ?? 130);
      }
      abort.abort(sig);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
    try {
      const state = await workflowToDrive(rt, service, settings, g.server, o.workflow).catch((e: unknown) => {
        throw o.workflow ? e : nothingToRun(e);
      });
      const setup = agentSetup(lastRun(rt, o, settings, state), rt.env, settings, state.worktree);
      const profile = assertAgentStartable(setup, state.worktree, rt.env);
      // Engine, image, worktree: checked before any task starts or anything is created.
      await setup.executor.preflight?.(state.worktree);
      await warnWithoutGit(rt.io, state.worktree);
      const shared = runShared(service, setup, settings, rt.env);
      const report = await new AgentRunner(service).run(
        { workflowId: state.id },
        {
          ...runBasics(setup, shared, profile, setup.executor),
          maxTasks: o.maxTasks ? parseNumber(o.maxTasks, '--max-tasks', { int: true, min: 1 }) : null,
          maxDurationMs: o.maxDuration ? parseDuration(o.maxDuration, '--max-duration') : null,
          startedAt,
          autoResume: o.autoResume === true,
          ownership: {
            ports: shared.ports,
            factory: shared.factory,
            kind: 'run',
            command: `baton run --agent ${profile.name}`,
            retry: retryCommand(state.id, { ...o, agent: profile.name }),
            takeOver: o.takeOver === true,
            sharedWorktree: o.shareWorktree ? 'warn' : 'refuse',
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
      // Paused by a usage limit, not waited for, or by the agent's API failing: not done, try again later (sysexits' EX_TEMPFAIL), so a script that
      // goes on after `baton run` does not go on as if the work were finished
      else if (
        (report.status === 'paused' && report.usage_limit && !report.usage_limit.auto_resumed) ||
        report.api_error
      )
        rt.exitCode = 75;
      // work left that no task can take up (blocked, or waiting on a blocked one): not done either (what to do was
      // printed)
      else if (report.stopped === 'no runnable task' && report.status !== 'completed') rt.exitCode = 1;
      if (abort.signal.aborted) rt.exitCode = exitCodes[String(abort.signal.reason)] ?? 130;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      progress.stop();
      await rt.flushMirror();
      await service.close();
    }
  });
}
