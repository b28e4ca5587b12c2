import { existsSync } from 'node:fs';
import { profileEntry } from '../../agents/runtime/index.js';
import { readAgentProfiles } from '../../config/agent-config.js';
import { settingReader } from '../../config/settings.js';
import type { Command } from 'commander';
import { BATON_ACTOR, reachFlag } from '../../core/index.js';
import type { QueueEntry } from '../../service/index.js';
import { emit, table } from '../output.js';
import { parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';
import { makeWorker, workerLine, workerOptions, type WorkerFlags } from '../worker-runtime.js';
import { agentOptions } from '../agent-runs.js';
import { workerQueueNote } from '../server-database.js';
import { takenRef } from '../taken-workflow.js';

interface SubmitFlags {
  workflow?: string;
  agent?: string;
  agentBin?: string;
  contextWindow?: string;
  maxSessions?: string;
  priority?: string;
  label?: string;
}

const queueLine = (e: QueueEntry) =>
  e.state === 'queued'
    ? `queued ${e.workflow_id} (priority ${e.priority}, agent ${e.profile.agent}${e.label ? `, label ${e.label}` : ''})`
    : `done ${e.workflow_id}: ${e.outcome ?? ''}`;

/**
 * `baton submit` (queue a workflow for any worker), `baton queue` (read the queue) and `baton worker` (run queued work;
 * several workers on several machines share one PostgreSQL database).
 */
export function registerWorkerCommands(program: Command, rt: Runtime) {
  program
    .command('submit')
    .description(
      'queue the workflow to be run by any `baton worker`, with its agent profile (highest --priority first, then the oldest submission)',
    )
    .option('-w, --workflow <id>', 'the workflow (default: the one of the current worktree)')
    .option(
      '--agent <name>',
      'agent profile: claude-code, codex, command, or a configured one (env BATON_AGENT, config agent)',
    )
    .option('--agent-bin <path>', "the agent executable on the worker's machine (default: the worker's own)")
    .option('--context-window <tokens>', "the model's context window")
    .option('--max-sessions <n>', 'sessions the worker may use (default 20)')
    .option('--priority <n>', 'higher runs first, from -1000 to 1000 (default 0)')
    .option(
      '--label <name>',
      'run only on workers started with this --label (else: any worker whose --worktree-root holds it)',
    )
    .action(async (o: SubmitFlags, cmd: Command) => {
      const g = rt.globals(cmd);
      // The agent as `baton run` reads it: option, variable, config file key `agent`.
      const settings = rt.settings(g);
      const agent = settingReader({ agent: o.agent }, rt.env, settings).text('agent') || null;
      const client = await rt.open(g);
      try {
        const num = (v: string | undefined, flag: string) =>
          v === undefined ? null : parseNumber(v, flag, { int: true });
        // queueing an agent run on a guess is the Resume Protocol's "ask which run": among conversations' workflows
        const ref = await takenRef(rt, client, o.workflow, { ask: true });
        // A name no worker could run is refused before anything is queued: the profiles a worker reads for it (the
        // workflow's worktree's baton.config.json, else the config of BATON_HOME). A worktree not on this machine
        // (a server's or another's) has its profiles where the workers are: they judge the name.
        const worktree = agent ? (await client.get(ref)).worktree : null;
        if (agent && worktree && existsSync(worktree))
          profileEntry(agent, readAgentProfiles(settings.home, worktree));
        const entry = await client.submit(ref, {
          agent,
          agent_bin: o.agentBin ?? null,
          context_window: num(o.contextWindow, '--context-window'),
          max_sessions: num(o.maxSessions, '--max-sessions'),
          priority: num(o.priority, '--priority'),
          label: o.label ?? null,
        });
        emit(rt.io, g.json === true, entry, () => {
          const filter = reachFlag(entry);
          return `${queueLine(entry)}\n  a running \`baton worker\` or \`baton serve --worker\` started with ${filter} takes it; else start a worker: baton worker ${filter}`;
        });
      } finally {
        await rt.flushMirror();
        await client.close();
      }
    });

  program
    .command('queue')
    .description('the work queue: queued work in the order workers take it, then the work done')
    .action(async (_o: unknown, cmd: Command) => {
      const g = rt.globals(cmd);
      const client = await rt.open(g);
      try {
        const q = await client.queue();
        emit(rt.io, g.json === true, q, () =>
          q.entries.length
            ? table(
                ['workflow', 'state', 'priority', 'agent', 'label', 'claimed by', 'attempts', 'outcome'],
                q.entries.map((e) => [
                  e.workflow_id,
                  e.running ? 'running' : e.state,
                  e.priority,
                  e.profile.agent,
                  e.label ?? '',
                  e.claimed_by ?? '',
                  e.attempts,
                  e.outcome ?? '',
                ]),
              )
            : 'the queue is empty (queue a workflow with `baton submit`)',
        );
      } finally {
        await client.close();
      }
    });

  workerOptions(
    agentOptions(
      program
        .command('worker')
        .description(
          'run queued work: claims submitted workflows it can reach and runs up to --concurrency agent sessions; SIGTERM/Ctrl-C pauses them at the task boundary and releases them (again: stops now)',
        ),
    ),
  ).action(async (o: WorkerFlags, cmd: Command) => {
    const g = rt.globals(cmd);
    const settings = rt.settings(g, { actor: BATON_ACTOR });
    const service = await rt.openService(settings);
    try {
      const note = await workerQueueNote(rt, service, settings, g.server);
      if (note) rt.io.err(note);
      await runWorker(rt, service, settings, o, g.json === true);
    } finally {
      await rt.flushMirror();
      await service.close();
    }
  });
}

/** Runs a worker until SIGTERM/SIGINT (drain), a second one (stop now); prints what it claims, starts, finishes. */
export async function runWorker(
  rt: Runtime,
  service: Parameters<typeof makeWorker>[0],
  settings: Parameters<typeof makeWorker>[1],
  o: WorkerFlags,
  json: boolean,
) {
  const worker = makeWorker(service, settings, o, rt.env, (e) => {
    if (json) {
      if (e.event !== 'agent.output' || o.verbose) rt.io.out(JSON.stringify(e));
      return;
    }
    const line = workerLine(e, o.verbose === true);
    if (line) rt.io.out(line);
  });
  const onSignal = (sig: NodeJS.Signals) => void worker.stop(sig);
  // SIGHUP (the terminal closed) as SIGTERM: the agents lead their own process groups and never get it
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  try {
    await worker.run();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
}
