import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { settingReader, type Settings } from '../config/settings.js';
import { invalidInput, RECHECK_DEFAULT } from '../core/index.js';
import { Worker, type WorkerEvent } from '../service/runtime/index.js';
import type { BatonService } from '../service/index.js';
import { agentSetup, assertAgentStartable, type AgentFlags } from './agent-setup.js';
import { runBasics, runShared } from './agent-runs.js';
import { collect } from './parse.js';

export interface WorkerFlags extends AgentFlags {
  worker?: boolean;
  concurrency?: string;
  worktreeRoot?: string[];
  label?: string[];
  leaseTtl?: string;
  poll?: string;
  recheck?: string;
  verbose?: boolean;
}

/** The worker's own flags (also on `baton serve --worker`). */
export const workerOptions = (cmd: Command) =>
  cmd
    .option('--concurrency <n>', 'agent sessions at once (env BATON_WORKER_CONCURRENCY, default 1)')
    .option(
      '--worktree-root <dir>',
      'take work whose worktree is under this directory (repeatable; env BATON_WORKTREE_ROOTS, comma separated)',
      collect,
    )
    .option(
      '--label <name>',
      'take work submitted with this --label (repeatable; env BATON_WORKER_LABELS)',
      collect,
    )
    .option(
      '--lease-ttl <duration>',
      'a workflow is taken over this long after its worker stopped heartbeating (env BATON_LEASE_TTL, default 30s)',
    )
    .option(
      '--poll <duration>',
      'how often an idle worker asks the queue (env BATON_WORKER_POLL, default 1s)',
    )
    .option(
      '--recheck <duration>',
      `how long work this worker could not start (its agent missing here) is left before it checks again whether it can (env BATON_WORKER_RECHECK, default ${RECHECK_DEFAULT})`,
    )
    .option('--verbose', "stream the agents' own output");

/** The worker's options: flag > environment variable > config file (`baton.config.json`, `config.json`) > default. */
export function workerSettings(o: WorkerFlags, env: NodeJS.ProcessEnv, settings: Settings) {
  const r = settingReader(
    {
      workerConcurrency: o.concurrency,
      worktreeRoots: o.worktreeRoot?.length ? o.worktreeRoot.join(',') : undefined,
      workerLabels: o.label?.length ? o.label.join(',') : undefined,
      leaseTtl: o.leaseTtl,
      workerPoll: o.poll,
      workerRecheck: o.recheck,
    },
    env,
    settings,
  );
  const concurrency = r.integer('workerConcurrency', 1, 1, 256);
  const roots = r.list('worktreeRoots').map((root) => resolve(root));
  const missing = roots.find((root) => !existsSync(root));
  if (missing)
    throw r.invalid(
      'worktreeRoots',
      roots.length > 1
        ? `names ${missing}, which does not exist on this machine`
        : 'does not exist on this machine',
    );
  const labels = r.list('workerLabels');
  if (!roots.length && !labels.length)
    throw invalidInput(
      'a worker takes only work whose files it can reach: give --worktree-root DIR (repeatable; / for every worktree on this machine) or --label NAME (repeatable; matches `baton submit --label`)',
    );
  const ttlMs = r.durationMs('leaseTtl', '30s');
  if (ttlMs < 1_000) throw r.invalid('leaseTtl', 'must be at least 1s');
  const pollMs = r.durationMs('workerPoll', '1s');
  if (pollMs < 50) throw r.invalid('workerPoll', 'must be at least 50ms');
  // checking again is cheap, but claiming work that still cannot start is not: never at every poll
  const recheckMs = r.durationMs('workerRecheck', RECHECK_DEFAULT);
  if (recheckMs < 1_000) throw r.invalid('workerRecheck', 'must be at least 1s');
  return { concurrency, roots, labels, ttlMs, pollMs, recheckMs };
}

/** A worker over this service: each claimed entry runs with its submitted profile through `baton run`'s loop. */
export function makeWorker(
  service: BatonService,
  settings: Settings,
  o: WorkerFlags,
  env: NodeJS.ProcessEnv,
  onEvent: (e: WorkerEvent) => void,
): Worker {
  const w = workerSettings(o, env, settings);
  const base = agentSetup(o, env, settings, null);
  const shared = runShared(service, base, settings, env);
  return new Worker(service, {
    concurrency: w.concurrency,
    filter: { roots: w.roots, labels: w.labels },
    ports: shared.ports,
    factory: shared.factory,
    ttlMs: w.ttlMs,
    pollMs: w.pollMs,
    recheckMs: w.recheckMs,
    command: `baton worker on ${hostname()} (concurrency ${w.concurrency})`,
    runOptions: (entry) => {
      const p = entry.profile;
      const setup = agentSetup(
        {
          ...o,
          agent: p.agent,
          agentBin: p.agent_bin ?? o.agentBin,
          contextWindow: p.context_window !== null ? String(p.context_window) : o.contextWindow,
        },
        env,
        settings,
        entry.worktree,
      );
      const profile = assertAgentStartable(setup, entry.worktree, env);
      return {
        ...runBasics(setup, shared, profile, setup.executor),
        maxTasks: null,
        maxDurationMs: null,
        autoResume: false,
        maxSessions: p.max_sessions ?? setup.maxSessions,
        verbose: o.verbose === true,
      };
    },
    onEvent,
  });
}

/** One line per step a person watches for; null for what only --verbose or --json shows. */
export function workerLine(e: WorkerEvent, verbose: boolean): string | null {
  switch (e.event) {
    case 'worker.started':
      return `baton worker ${e.owner}: up to ${e.concurrency} at once; takes work ${[
        e.roots.length ? `under ${e.roots.join(', ')}` : '',
        e.labels.length ? `labelled ${e.labels.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' or ')}`;
    case 'work.claimed':
      return `claimed ${e.workflow_id} (priority ${e.priority}, agent ${e.agent}${e.attempts > 1 ? `, attempt ${e.attempts}` : ''})`;
    case 'work.taken_over':
      return `took over ${e.workflow_id} from ${e.from}: ${e.message}`;
    case 'task.started':
      return `${e.workflow_id}: started ${e.task_id} "${e.title}" (session ${e.session_number}${e.resume_token ? ', continuing the agent session' : ''})`;
    case 'task.finished':
      return `${e.workflow_id}: finished ${e.task_id}: ${e.outcome}${e.detail ? ` (${e.detail})` : ''} in ${e.seconds} s`;
    case 'work.finished':
      return e.done
        ? `finished ${e.workflow_id}: ${e.outcome}`
        : `released ${e.workflow_id} (${e.status}): another worker continues it`;
    case 'work.error':
      return `error${e.workflow_id ? ` on ${e.workflow_id}` : ''}: ${e.message}`;
    case 'worker.stopping':
      return `stopping (${e.reason}): no new work; ${e.running.length ? `${e.running.join(', ')} ${e.running.length === 1 ? 'pauses at its next task boundary (again to stop it now)' : 'pause at their next task boundary (again to stop them now)'}` : 'nothing running'}`;
    case 'worker.stopped':
      return 'stopped: every lease released';
    case 'crash.handled':
    case 'note':
      return `${e.workflow_id}: ${e.message}`;
    case 'agent.output':
      return verbose ? `${e.workflow_id} ${e.task_id}: ${e.text.trimEnd()}` : null;
    default:
      return null;
  }
}
