import type { TaskProduced } from '../../core/index.js';

/**
 * What `baton run` reports while it works: the CLI turns these into a live status line (on a terminal), one line per
 * step (elsewhere), or NDJSON progress events (`--json`). The same events whatever the executor.
 */
export type RunEvent =
  | {
      event: 'run.started';
      workflow_id: string;
      agent: string;
      /**
       * The session the run drives in: the workflow's current one, or, when it is paused or interrupted, the new one
       * its resume starts (`session.started` names it again, with why).
       */
      session_number: number;
      /** The workflow is paused or interrupted: the run goes on in a new session, which `session.started` names. */
      resuming: boolean;
      driver: string;
    }
  | { event: 'crash.handled'; workflow_id: string; message: string }
  | {
      event: 'session.started';
      workflow_id: string;
      session_number: number;
      reason: 'exhaustion' | 'usage_limit' | 'paused' | 'interrupted';
      context_tokens: number;
      /** The agent's own session this one continues (after a crash, when its token is usable); null: a fresh one. */
      agent_session: string | null;
    }
  | {
      event: 'task.started';
      workflow_id: string;
      task_id: string;
      title: string;
      session_number: number;
      resume_token: string | null;
      fallback: string | null;
      log: string | null;
    }
  | { event: 'agent.tool'; workflow_id: string; task_id: string; text: string }
  | { event: 'agent.output'; workflow_id: string; task_id: string; stream: 'stdout' | 'stderr'; text: string }
  | {
      event: 'usage';
      workflow_id: string;
      task_id: string;
      context_utilization: number | null;
      context_tokens: number | null;
      context_window: number | null;
      cost_usd: number | null;
    }
  | {
      event: 'task.finished';
      workflow_id: string;
      task_id: string;
      outcome: string;
      detail: string | null;
      seconds: number;
      log: string | null;
      /** A task done: what it produced, as Baton recorded it (its commits, its last test run, its usage). */
      produced?: TaskProduced;
    }
  | { event: 'workflow.paused'; workflow_id: string; trigger: string | null; reason: string | null }
  | { event: 'note'; workflow_id: string; message: string };

/** Where a task's agent output is kept (the run folder's `logs/`): src/disk implements it. */
export interface TaskLogSink {
  readonly path: string;
  write(stream: 'stdout' | 'stderr', text: string): void;
  close(): Promise<void>;
}

export interface TaskLogInfo {
  name: string;
  task_id: string | null;
  session_number: number | null;
  size: number;
  modified_at: string;
}

export interface TaskLogs {
  /** A new log for one agent run of a task: `logs/<task>-s<session>-<n>.log`. */
  open(w: { id: string; worktree: string }, taskId: string, sessionNumber: number): TaskLogSink;
  list(w: { id: string; worktree: string }): Promise<TaskLogInfo[]>;
  /** The log of a task's latest agent run in one session (the highest `n`), null when it has none. */
  latest(
    w: { id: string; worktree: string },
    taskId: string,
    sessionNumber: number,
  ): Promise<TaskLogInfo | null>;
  /** A slice of one log from a byte offset (to follow a growing log). */
  read(
    w: { id: string; worktree: string },
    name: string,
    offset: number,
    limit: number,
  ): Promise<{ name: string; offset: number; next_offset: number; size: number; text: string }>;
}
