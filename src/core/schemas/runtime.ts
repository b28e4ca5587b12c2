import { z } from 'zod';

/** The agent runtime's records: side effects already done, the agent session a workflow runs in. */

export const sideEffectKinds = ['commit', 'push', 'pr', 'migration', 'file_write', 'other'] as const;
export const SideEffectKind = z.enum(sideEffectKinds);
export type SideEffectKind = z.infer<typeof SideEffectKind>;

/** One completed tool action with an effect outside the conversation: the ledger of "already done, do not redo". */
export const SideEffect = z.object({
  id: z.string(),
  timestamp: z.string(),
  task_id: z.string().nullable(),
  kind: SideEffectKind,
  tool: z.string(),
  summary: z.string().min(1),
});
export type SideEffect = z.infer<typeof SideEffect>;

export const agentOutcomes = ['success', 'error', 'usage_limit', 'context_full', 'killed', 'lost'] as const;
export const AgentOutcome = z.enum(agentOutcomes);
export type AgentOutcome = z.infer<typeof AgentOutcome>;

/**
 * How an agent's run ended short of its task with its own session whole: cut off in the middle of its turn (killed,
 * or crashed: its output stops before its result line), or stopped at its turn limit, which that session can go on
 * from; or stopped by Baton as hung (`hung`), which a fresh session takes over (it may hang there again).
 */
export const CutShort = z.enum(['cut_off', 'turn_limit', 'hung']);
export type CutShort = z.infer<typeof CutShort>;

/** A driver's capacity policy as recorded: warn at, pause at (fractions of the context window). */
export const CapacityThresholds = z.object({
  warn_at: z.number().min(0).max(1),
  pause_at: z.number().min(0).max(1),
});
export type CapacityThresholds = z.infer<typeof CapacityThresholds>;

/**
 * The executor a run was given other than the default (local): what a later `baton run` given none runs on again
 * (`--executor docker --docker-image`, `--executor remote --executor-url`).
 */
export const ExecutorChoice = z.discriminatedUnion('executor', [
  z.object({ executor: z.literal('docker'), docker_image: z.string() }),
  z.object({ executor: z.literal('remote'), executor_url: z.string() }),
]);
export type ExecutorChoice = z.infer<typeof ExecutorChoice>;

/** The agent (driver) session the workflow's current Baton session runs in. */
export const AgentRuntime = z.object({
  agent: z.string(),
  executor_id: z.string(),
  /** The agent's own session id (Claude Code session_id, Codex thread id); null until the agent reports it. */
  resume_token: z.string().nullable(),
  launched_at: z.string(),
  /** Why this driver session started fresh instead of resuming the agent's own session, when it did. */
  fallback: z.string().nullable(),
  last_outcome: AgentOutcome.nullable(),
  /** The task the agent was on when it last exited (the task `last_outcome` ended). */
  last_task: z.string().nullable().optional(),
  /** How that exit ended short of the task with the agent's session whole, when it did (`CutShort`). */
  last_cut_short: CutShort.nullable().optional(),
  /** That exit's code (null: killed by a signal, or not known). */
  last_exit_code: z.number().int().nullable().optional(),
  /** The Baton session whose capacity warning was already given (one warning per session). */
  warned_session: z.number().int().nullable(),
  /** The driver's capacity policy (`--warn-at`, `--pause-at`), for whoever shows the context gauge. */
  capacity: CapacityThresholds.nullable().optional(),
  /** The program the run was given to start (absent: its profile's): a later `baton run` given none starts it again. */
  bin: z.string().optional(),
  /** The executor the run was given, when not the local one: a later `baton run` given none runs on it again. */
  executor: ExecutorChoice.optional(),
  usage_limit: z
    .object({ message: z.string(), resets_at: z.string().nullable(), auto_resume_at: z.string().nullable() })
    .nullable(),
});
export type AgentRuntime = z.infer<typeof AgentRuntime>;
