import type { CapacityPolicy, TaskProduced, WorkflowState } from '../../core/index.js';
import type { LeaseKind, ProcessPorts } from './ownership.js';
import type { SharedWorktree } from './worktree-peers.js';
import type { RunEvent, TaskLogs } from './run-events.js';
import type { AgentDriver, AgentProfile, Executor, ExecutorFactory } from './runtime-ports.js';

/** How many times a run goes on with a task whose agent hung, before the task fails. */
export const STALL_RETRIES = 2;

/** What a run of the agent runner is told (`baton run`, a worker, `baton serve`'s recovery), and what it reports. */
export interface RunOptions {
  profile: AgentProfile;
  driver: AgentDriver;
  executor: Executor;
  capacity: CapacityPolicy;
  heartbeatMs: number;
  /**
   * An agent that prints nothing for this long is hung: stopped, and the task goes on in its own session (else with
   * the compiled context), at most `STALL_RETRIES` times a task; null: never.
   */
  stallMs: number | null;
  /** Pause with trigger `task_complete` after this many tasks in this run. */
  maxTasks: number | null;
  /** Pause with trigger `timeout` once this run has gone on longer than this (counted from the run's start). */
  maxDurationMs: number | null;
  /** When the run began (ms since the epoch): the command's start, before its store and agent were set up; default now. */
  startedAt?: number;
  /**
   * On a usage limit, wait for its reset and resume (one with no reset time, or back with nothing done since: a
   * growing wait, `retryWait`), and wait out an API failure that passes; else pause and stop.
   */
  autoResume: boolean;
  /** The first of those growing waits (default `FIRST_RETRY_WAIT`, a minute). */
  retryWaitMs?: number;
  /**
   * Sessions this run may use in all: after an exhaustion pause (or a usage limit with `autoResume`) it resumes in a
   * fresh agent session with the compiled context until the workflow ends or this many sessions ran (null: no limit).
   * The sessions started after waiting out a limit are not counted: those waits have their own bound (`RETRY_WAITS`).
   */
  maxSessions: number | null;
  /** Token budget of the structured history handed to a fallback driver session. */
  historyBudget: number;
  /** Who launches (`host:pid:start`), kept on the executor row. */
  owner: string;
  /** The lease this run drives the workflow under (one driver per workflow); none for a store without leases. */
  ownership?: {
    ports: ProcessPorts;
    factory: ExecutorFactory;
    kind?: LeaseKind;
    /** What this driver is, for whoever is refused: `baton run --agent claude-code`. */
    command: string;
    /** The exact command a refused user runs again with `--take-over`. */
    retry: string;
    takeOver: boolean;
    ttlMs?: number;
    /**
     * Another workflow of the same worktree driven on this host (its agent edits the same files): refuse, or go on
     * with a warning. Unset: not checked (`baton serve`, workers: each runs what it was given).
     */
    sharedWorktree?: SharedWorktree;
  } | null;
  env?: Record<string, string>;
  log?: (line: string) => void;
  onEvent?: (e: RunEvent) => void;
  /** Stream the agent's own output as `agent.output` events. */
  verbose?: boolean;
  /** Where each task's agent output is kept (the run folder's `logs/`). */
  logs?: TaskLogs | null;
  /** How the agent runs Baton's CLI (told in every task's prompt); null leaves that section out. */
  batonCommand?: string | null;
  /**
   * Aborted when the run is told to stop (SIGINT, SIGTERM): the agent is stopped, and the workflow is marked
   * `interrupted` (crash snapshot), so that it is offered for resume rather than shown running with nobody there.
   */
  signal?: AbortSignal;
  /** Called with the report while the lease is still held (a worker records the outcome in the queue first). */
  beforeRelease?: (report: RunReport) => Promise<void>;
}

export interface RunReport {
  workflow_id: string;
  status: WorkflowState['status'];
  pause_trigger: WorkflowState['pause_trigger'];
  /** `produced`: what a task done produced, as Baton recorded it (its commits, its last test run, its usage). */
  tasks: {
    id: string;
    outcome: string;
    detail?: string | null;
    log?: string | null;
    produced?: TaskProduced;
  }[];
  fallbacks: string[];
  /** `reset_words`: the reset time as Baton says one (`resetWords`: the notice's words, or this machine's clock, and UTC). */
  /** `waits`: the times in a row this run waited for it with nothing done between (0: it did not wait). */
  usage_limit: {
    resets_at: string | null;
    reset_words: string | null;
    auto_resumed: boolean;
    waits: number;
  } | null;
  /** The agent's API failed (overloaded, a server error, a dropped connection), in its words: the run was interrupted. */
  api_error: string | null;
  stopped: string;
  /** Baton sessions this run worked in (a fresh one after each exhaustion or usage-limit pause). */
  sessions: number;
  /** A task failed in this run (`baton run` exits 1). */
  failed: boolean;
  /** How to go on from where the run ended (`nextStep`: the command, and the task it takes up); null: finished. */
  next: string | null;
}

/** Who stops a run when its signal fires, as its lines name it: the worker that runs it, or `baton run`. */
export const stopperOf = (o: RunOptions) =>
  o.ownership?.kind === 'worker' ? o.ownership.command : 'baton run';
