import { z } from 'zod';

/** The records an agent session leaves behind (the Amelia design's models, every field kept). */

export const decisionTypes = [
  'approach',
  'library',
  'architecture',
  'workaround',
  'skip',
  'clarification',
] as const;
export const DecisionType = z.enum(decisionTypes);

/**
 * Where a record read from a transcript was seen: the transcript's path (on the machine that read it) and the line.
 * A record given by hand or by the agent's own tools has none. Notes of a record that say "transcript line N" mean
 * this transcript; "transcript line N of <path>" names another (a later session's, where the error was fixed).
 */
export const Evidence = z.object({ transcript: z.string().min(1), line: z.number().int().nonnegative() });
export type Evidence = z.infer<typeof Evidence>;

export const Decision = z.object({
  id: z.string(),
  timestamp: z.string(),
  task_id: z.string().nullable(),
  decision_type: DecisionType,
  description: z.string().min(1),
  rationale: z.string(),
  alternatives_considered: z.array(z.string()).nullable(),
  evidence: Evidence.optional(),
});
export type Decision = z.infer<typeof Decision>;

export const errorResolutions = ['fixed', 'workaround', 'deferred', 'unresolved'] as const;
export const ErrorResolution = z.enum(errorResolutions);

export const ErrorRecord = z.object({
  id: z.string(),
  timestamp: z.string(),
  task_id: z.string().nullable(),
  error_type: z.string().min(1),
  error_message: z.string().min(1),
  context: z.string().nullable(),
  resolution: ErrorResolution,
  resolution_notes: z.string().nullable(),
  evidence: Evidence.optional(),
});
export type ErrorRecord = z.infer<typeof ErrorRecord>;

export const ReviewerFeedback = z.object({
  review_id: z.string(),
  reviewer_persona: z.string().min(1),
  timestamp: z.string(),
  approved: z.boolean(),
  severity: z.string(),
  comments: z.array(z.string()),
  addressed: z.boolean(),
});
export type ReviewerFeedback = z.infer<typeof ReviewerFeedback>;

export const tddPhases = ['red', 'green', 'refactor', 'unknown'] as const;
export const TddPhase = z.enum(tddPhases);

export const TestState = z.object({
  phase: TddPhase,
  failing_tests: z.array(z.string()),
  expected_failures: z.array(z.string()),
  last_test_run_at: z.string().nullable(),
  last_test_command: z.string().nullable(),
  last_test_output_summary: z.string().nullable(),
  /** What the runner reported, when it printed counts (read from a transcript or given by the agent). */
  passed: z.number().int().nonnegative().nullable().optional(),
  failed: z.number().int().nonnegative().nullable().optional(),
  skipped: z.number().int().nonnegative().nullable().optional(),
  /** Line coverage in percent, when the run printed it. */
  coverage: z.number().min(0).max(100).nullable().optional(),
  /** vitest, jest, node, pytest, cargo, go, bun... when known. */
  runner: z.string().nullable().optional(),
  /**
   * Tests an earlier run left failing that no run since ran again (each named other test files: `notRunAgain`), with
   * the command that last failed them: not known to pass.
   */
  not_run_again: z
    .object({ tests: z.array(z.string()), command: z.string().nullable() })
    .nullable()
    .optional(),
});
export type TestState = z.infer<typeof TestState>;

/**
 * What the CI service said of the checks the agent read (`gh pr checks`, `gh run view`, ...): a fact beside the local
 * test runs, never one of them. `pass`: every check the report listed passed; `fail`: one of them failed. A report of
 * checks still running is none.
 */
export const CiState = z.object({
  outcome: z.enum(['pass', 'fail']),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** The checks that failed, by name (the first ten). */
  failing: z.array(z.string()),
  /** The command that read the report (`gh pr checks 12`). */
  command: z.string().nullable(),
  /** The commit the checks ran on, when the report named it (`headSha`). */
  commit: z.string().nullable(),
  /** The report's output was cut (the transcript kept its ends): checks in its middle were not read. */
  cut: z.boolean().optional(),
  /** When the report was read. */
  at: z.string(),
});
export type CiState = z.infer<typeof CiState>;

export const UsageMetrics = z.object({
  tokens_used: z.number().int().nonnegative(),
  tokens_remaining_estimate: z.number().int().nullable(),
  context_utilization: z.number().min(0).max(1).nullable(),
  llm_calls: z.number().int().nonnegative(),
  tool_calls: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative().nullable(),
  session_duration_seconds: z.number().int().nonnegative(),
  /** The model's context window the utilisation was measured against. */
  context_window: z.number().int().positive().nullable(),
  /** Output tokens so far (part of `tokens_used`), when the agent reports them. */
  output_tokens: z.number().int().nonnegative().nullable().optional(),
  /** `output_tokens` is in part estimated from what the model wrote (the transcript recorded too few). */
  output_tokens_estimated: z.boolean().optional(),
  /** The current context size (the prompt of the latest model call): a gauge, never summed. */
  context_tokens: z.number().int().nonnegative().nullable().optional(),
  /** The largest context of any call (the peak before a compaction), when a transcript tells it. */
  peak_context_tokens: z.number().int().nonnegative().nullable().optional(),
});
export type UsageMetrics = z.infer<typeof UsageMetrics>;

/** Work summed over readings: a session's, or the whole workflow's (every session). */
export const UsageTotals = z.object({
  tokens_used: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  llm_calls: z.number().int().nonnegative(),
  tool_calls: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  duration_seconds: z.number().int().nonnegative(),
  readings: z.number().int().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

export const emptyTotals = (): UsageTotals => ({
  tokens_used: 0,
  output_tokens: 0,
  llm_calls: 0,
  tool_calls: 0,
  cost_usd: 0,
  duration_seconds: 0,
  readings: 0,
});

/** One agent_history entry: a high-level line of what an agent did. */
export const HistoryEntry = z.object({
  id: z.string(),
  timestamp: z.string(),
  task_id: z.string().nullable(),
  session_number: z.number().int().positive(),
  text: z.string().min(1),
  source: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/**
 * The agent's own summaries, kept whole: the summary a compaction left (Claude Code's "This session is being
 * continued..." message, PostCompact's compact_summary, Codex's compacted message) and the agent's last message; and
 * the usage-limit notice a turn ended on (`usage_limit`: why the agent stopped, not its words nor an error of the
 * work; over once the agent says more or the user asks again), the API error a turn ended on (`api_error`: an
 * overloaded or failing API; the turn's request may not have been carried out; over the same way), and the user's
 * interruption of the agent's last turn (`interrupted`: Esc or Ctrl-C before the turn ended, its text the
 * transcript's marker; over the same way); and each sub-agent's answer (`sub_agent`, `<name>: <answer>`: what a Task
 * or Agent call, a background agent, a teammate or a Codex team member reported), kept as a record for `baton details
 * summaries` (the Last State names the latest few in a line each), no state of the agent's own.
 */
export const summaryKinds = [
  'compaction',
  'last_message',
  'usage_limit',
  'api_error',
  'interrupted',
  'sub_agent',
] as const;
export const SummaryKind = z.enum(summaryKinds);
export const Summary = z.object({
  id: z.string(),
  timestamp: z.string(),
  kind: SummaryKind,
  text: z.string().min(1),
  /** claude-code, codex, hook... */
  source: z.string().nullable(),
  session_number: z.number().int().positive(),
  /**
   * A last message: whether the agent's turn ended on it (a Stop hook's, or a transcript's last word with no tool call
   * or interruption after it); false when the agent went on, or the user stopped it, after it. Absent on older records.
   */
  turn_ended: z.boolean().optional(),
  /**
   * A last message the agent never said: its session was cut off before it said anything, and the text names the
   * calls that never returned (the Last State says so instead of calling it a message).
   */
  said_nothing: z.boolean().optional(),
  /** A usage limit: when it resets, when the notice says (read where and when it was given); null when it does not. */
  resets_at: z.string().nullable().optional(),
  /**
   * The checkpoint `baton recover` went back to after this was said (set in the state, never on the record): what it
   * tells of was done after that checkpoint, and is undone.
   */
  undone_by: z.string().optional(),
});
export type Summary = z.infer<typeof Summary>;

/**
 * One request of the user, in their own words (a prompt the agent received): the first one is the workflow's issue
 * when it has none, every one is kept in order. `at` is when the user asked (the hook's or the transcript's time).
 */
export const UserRequest = z.object({
  id: z.string(),
  timestamp: z.string(),
  at: z.string().nullable(),
  session_number: z.number().int().positive(),
  text: z.string().min(1),
  source: z.string().nullable(),
  /**
   * The item of the agent's list before it that the request names by its label ("5 seems like a great one" after a
   * table of todos: label "5", item "Fix FUSE rename on SMB backend | desktop"), as `menu-pick.ts` reads it. Absent on
   * the rest.
   */
  refers_to: z.object({ label: z.string(), item: z.string() }).optional(),
});
export type UserRequest = z.infer<typeof UserRequest>;

export const emptyUsage = (): UsageMetrics => ({
  tokens_used: 0,
  tokens_remaining_estimate: null,
  context_utilization: null,
  llm_calls: 0,
  tool_calls: 0,
  cost_usd: null,
  session_duration_seconds: 0,
  context_window: null,
  output_tokens: null,
  context_tokens: null,
});
