import { z } from 'zod';
import { UsageTotals } from './records.js';
import { AgentTaskSource } from './agent-tasks.js';

export const workflowStatuses = [
  'pending',
  'in_progress',
  'blocked',
  'paused',
  'interrupted',
  'completed',
  'failed',
  'cancelled',
] as const;
export const WorkflowStatus = z.enum(workflowStatuses);
export type WorkflowStatus = z.infer<typeof WorkflowStatus>;

export const taskStatuses = ['pending', 'in_progress', 'done', 'failed', 'blocked', 'skipped'] as const;
export const TaskStatus = z.enum(taskStatuses);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const snapshotTriggers = [
  'pause',
  /**
   * The agent stopped on its usage limit: the snapshot a hook takes of the turn it cut short, or the pause of a
   * `baton run` (or a worker) that met it. Handled as a `pause` (it ends the agent's turn; a workflow it paused is
   * resumed as one a person paused), named apart so that no one takes it for their own pause. Older logs hold such
   * snapshots as `pause`, their reason naming the limit.
   */
  'usage_limit',
  /**
   * A hook's snapshot of a turn an API error cut short (Claude Code's StopFailure: an outage, an overloaded server, a
   * prompt too long): handled as `usage_limit` is, for the same reason. Older logs hold such snapshots as `pause`.
   */
  'api_error',
  'task_complete',
  'exhaustion',
  'timeout',
  'crash',
  /**
   * The driver was stopped by a signal (Ctrl-C, SIGTERM, the terminal closed): asked for, not a crash. The workflow
   * is `interrupted` as after a crash, and resumes the same way.
   */
  'stopped',
  'manual',
  /** Taken to hand the context to a new agent session (a hook's session start, the first prompt after compacting). */
  'handover',
  /** A checkpoint Baton took on its own after real work (a hook's Stop or SessionEnd, at most every interval). */
  'scheduled',
] as const;
export const SnapshotTrigger = z.enum(snapshotTriggers);
export type SnapshotTrigger = z.infer<typeof SnapshotTrigger>;

export const Issue = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** An issue made from a request that named an item of the agent's list: that item (the request's `refers_to`). */
  refers_to: z.object({ label: z.string(), item: z.string() }).optional(),
});
export type Issue = z.infer<typeof Issue>;

/**
 * The completed workflow a workflow went on from: the same agent conversation's (the conversation went on after its
 * work was completed, or, `abandoned_at`, after the user abandoned it: not to be continued), or, `new_conversation`, the last workflow of the worktree, whose work was over when a new
 * conversation (or a `/clear`) began there. Its earlier work, which the new workflow does not record again, and what
 * that work left done (`done`: its pull requests, last push and last commits, a line each: earlier-work.ts), which a
 * briefing of the new workflow says.
 */
export const EarlierWorkflow = z.object({
  workflow_id: z.string(),
  title: z.string(),
  done: z.array(z.string().max(200)).max(8).optional(),
  new_conversation: z.literal(true).optional(),
  /**
   * When the user abandoned it (the conversation went on after): what the transcript holds from before is that work's,
   * not read into this workflow.
   */
  abandoned_at: z.string().optional(),
});
export type EarlierWorkflow = z.infer<typeof EarlierWorkflow>;

/** A task as declared when the workflow is created. */
export const TaskSpec = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'task ids are letters, digits, ".", "_" or "-"'),
  title: z.string().min(1).max(500),
  description: z.string().max(20_000).default(''),
  deps: z.array(z.string()).default([]),
  /** Lane order: every task of a lower lane finishes before a higher lane starts (bootstrap before development). */
  lane: z.number().int().min(0).default(0),
});
export type TaskSpec = z.infer<typeof TaskSpec>;
export type TaskSpecInput = z.input<typeof TaskSpec>;

const taskKeys = Object.keys(TaskSpec.shape).join(', ');

/**
 * A task as a person or a client declares it (a tasks file, the API, the library): a key it does not know is refused,
 * named with the keys a task has, since dropped it would lose what it said (a misspelt "deps" runs a task before the
 * one it waits for). Tasks read back from Baton's own files are `TaskSpec`s.
 */
export const NewTask = z.strictObject(TaskSpec.shape, {
  error: (issue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')} (a task has ${taskKeys})`
      : undefined,
});

/** A task with its status derived from events. */
export const Task = TaskSpec.extend({
  status: TaskStatus,
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  session_number: z.number().int().nullable(),
  note: z.string().nullable(),
  /**
   * When it was added (by the agent's list call that made it, at that call's time): the list changed then, as it does
   * when a task starts or ends. Absent for a task added before it was kept.
   */
  added_at: z.string().optional(),
  /**
   * How many times in a row it failed since it was last done or skipped (folded from `task.failed`): a run that takes
   * it up again says the count, and stops going on in the agent session that keeps failing it. Absent: none.
   */
  failures: z.number().int().positive().optional(),
  /**
   * The Baton session whose agent's list made this task (folded from `task.added`'s origin): its plan, which a later
   * session's list may leave behind. Absent for a task the user added (CLI, REST, MCP, a tasks file).
   */
  planned_in: z.number().int().optional(),
  /**
   * An agent's new list left this open task out: which agent's, in which Baton session, and the agents told so (they
   * may take it into their list in its words). Cleared once a list holds it again, or it is started, done or skipped.
   * Absent otherwise.
   */
  left_out: z
    .object({ by: AgentTaskSource, told: z.array(AgentTaskSource), session: z.number().int().nullish() })
    .optional(),
});
export type Task = z.infer<typeof Task>;

/** The agent's own session a Baton session follows (Claude Code's or Codex's session id). */
export const AgentSessionRef = z.object({ name: z.string(), session_id: z.string() });
export type AgentSessionRef = z.infer<typeof AgentSessionRef>;
/** An agent and its session, when the caller knows it (a hook payload may carry no session id). */
export type AgentRef = AgentSessionRef | { name: string; session_id: null };

export const SessionInfo = z.object({
  number: z.number().int().positive(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  /** Why this session began: the workflow was created, resumed, or recovered. */
  origin: z.enum(['create', 'resume', 'recover']),
  /** Why it ended (the trigger of the snapshot that closed it), null while it runs. */
  end_reason: z.string().nullable(),
  snapshot_id: z.string().nullable(),
  tasks_done: z.number().int().nonnegative(),
  /** What this session's readings add up to. */
  usage: UsageTotals.optional(),
  /** The agent session this Baton session follows, when a hook tied them (absent before any hook did). */
  agent: AgentSessionRef.nullable().optional(),
  /**
   * A transcript was imported into it (`baton import`, or a hook reading its agent's): without an agent it follows,
   * its work was read afterwards, and no agent works on it.
   */
  imported: z.boolean().optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const CheckpointRef = z.object({
  name: z.string(),
  number: z.number().int().positive(),
  snapshot_id: z.string(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  created_at: z.string(),
  seq: z.number().int().nonnegative(),
});
export type CheckpointRef = z.infer<typeof CheckpointRef>;
