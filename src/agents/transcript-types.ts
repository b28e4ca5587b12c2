import { z } from 'zod';

/**
 * The normalised shape every agent parser (Claude Code transcript, Claude stream-json, Codex rollout / exec --json)
 * produces. Token counts follow one convention for all formats: `input_tokens` is the prompt part that was neither
 * read from nor written to a cache, so `input + cache_read + cache_creation` is the full prompt. (OpenAI-style
 * counts, where `input_tokens` includes the cached part, are converted.)
 */
export const transcriptFormats = [
  'claude-code-transcript',
  'claude-code-stream-json',
  'codex-rollout',
  'codex-exec-json',
] as const;
export const TranscriptFormat = z.enum(transcriptFormats);
export type TranscriptFormat = z.infer<typeof TranscriptFormat>;

export const entryRoles = ['user', 'assistant', 'tool', 'system'] as const;
export const EntryRole = z.enum(entryRoles);
export type EntryRole = z.infer<typeof EntryRole>;

/**
 * text: prose from the user or the assistant; thinking: visible reasoning; tool_call / tool_result: a tool use and
 * its outcome; summary: a compaction summary (kept whole); compaction: the context was compacted; error: an API or
 * run error reported by the agent itself; result: the final result line of a headless run; meta: injected context
 * (command caveats, slash-command echoes, hook feedback, session titles).
 */
export const entryKinds = [
  'text',
  'thinking',
  'tool_call',
  'tool_result',
  'summary',
  'compaction',
  'error',
  'result',
  'meta',
] as const;
export const EntryKind = z.enum(entryKinds);
export type EntryKind = z.infer<typeof EntryKind>;

export const ToolInfo = z.object({
  /** The call id linking a call to its result (tool_use id, Codex call_id, exec item id). */
  id: z.string().nullable(),
  name: z.string().nullable(),
  /** The call's input as the agent sent it (on results: copied from the matching call when known). */
  input: z.unknown(),
  /** true when the agent marked the result as failed; null when it did not say (and on calls). */
  is_error: z.boolean().nullable(),
  /** A shell command's exit code when the format reports it (or states it in the output text). */
  exit_code: z.number().int().nullable(),
  /** The agent stopped the command itself (a Codex poll that sent Ctrl-C to its session): not a failure. */
  interrupted: z.boolean().optional(),
  /** The command was still running when this output was read (a Codex poll): a later result says how it ended. */
  running: z.boolean().optional(),
  /**
   * The call that read this output when it is not the one that ran (a Codex `write_stdin` poll, a Claude Code
   * TaskOutput / BashOutput read of a background command that ended): it answers both.
   */
  polled_by: z.string().optional(),
  /**
   * A code-mode cell whose commands are recorded as entries of their own (Codex's CommandExecution items, with their
   * exit codes): the cell's result is what it printed, not its commands' outcome.
   */
  commands_apart: z.boolean().optional(),
});
export type ToolInfo = z.infer<typeof ToolInfo>;

export const TranscriptEntry = z.object({
  /** 1-based line number in the source (for one-object files: the line the object starts on). */
  line: z.number().int().positive(),
  at: z.string().nullable(),
  role: EntryRole,
  kind: EntryKind,
  text: z.string(),
  /** true when `text` was cut to the parser's maxTextLength. */
  truncated: z.boolean(),
  tool: ToolInfo.nullable(),
  /** Sub-agent (sidechain) activity rather than the main conversation. */
  sidechain: z.boolean(),
  /** A user message typed while the agent was working (Claude Code's queue), delivered to it mid-turn. */
  queued: z.boolean().optional(),
  /** An agent's message said on its way (Codex's `phase: "commentary"`, not its final answer): its turn went on. */
  commentary: z.boolean().optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const TranscriptUsage = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  /** input + output + cache_creation + cache_read. */
  total_tokens: z.number().int().nonnegative(),
  /** Size of the context after the latest main-chain model call (full prompt of that call); null if unknown. */
  context_tokens: z.number().int().nonnegative().nullable(),
  /** The largest context of any main-chain call so far (the peak before a compaction); null if unknown. */
  peak_context_tokens: z.number().int().nonnegative().nullable(),
  /** The model's context window when the format reports it (stream-json result, Codex token_count). */
  context_window: z.number().int().positive().nullable(),
  cost_usd: z.number().nonnegative().nullable(),
  /** Agent turns as reported by the agent (stream-json result), else the number of user prompts. */
  num_turns: z.number().int().nonnegative(),
  /** Distinct model calls (duplicate lines of one message counted once). */
  llm_calls: z.number().int().nonnegative(),
  tool_calls: z.number().int().nonnegative(),
  /** Reported run duration, else the span between the first and last timestamps; null when there are none. */
  duration_ms: z.number().int().nonnegative().nullable(),
  /**
   * `output_tokens` is in part estimated from what the model wrote: the transcript recorded some messages' counts as
   * they started (Claude Code 2.1.5x writes 1 to 10 tokens on every line of a message).
   */
  output_estimated: z.boolean().optional(),
});
export type TranscriptUsage = z.infer<typeof TranscriptUsage>;

export const Compaction = z.object({
  line: z.number().int().positive(),
  at: z.string().nullable(),
  trigger: z.enum(['auto', 'manual']).nullable(),
  /** Context size right before compaction (reported, or the last measured context before the marker). */
  pre_tokens: z.number().int().nonnegative().nullable(),
  /** Context size of the first model call after compaction, when there was one. */
  post_tokens: z.number().int().nonnegative().nullable(),
});
export type Compaction = z.infer<typeof Compaction>;

export const SkippedLine = z.object({
  line: z.number().int().positive(),
  reason: z.string(),
});
export type SkippedLine = z.infer<typeof SkippedLine>;

export const RunResult = z.object({
  line: z.number().int().positive(),
  /** "success", "error_max_turns", "error_during_execution", "turn.failed", ... as the agent wrote it. */
  subtype: z.string(),
  is_error: z.boolean(),
  text: z.string().nullable(),
});
export type RunResult = z.infer<typeof RunResult>;

export const ParsedTranscript = z.object({
  format: TranscriptFormat,
  session_id: z.string().nullable(),
  model: z.string().nullable(),
  cwd: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  entries: z.array(TranscriptEntry),
  usage: TranscriptUsage,
  compactions: z.array(Compaction),
  /** The final result of a headless run (stream-json result, Codex turn.completed/failed); null otherwise. */
  result: RunResult.nullable(),
  skipped: z.array(SkippedLine),
  /** The number of the last line read (including skipped and blank ones; continues from `startLine`). */
  lines: z.number().int().nonnegative(),
  /** What a later parse needs to continue after the last line (see ParseOptions.state); JSON, bounded in size. */
  state: z.unknown(),
});
export type ParsedTranscript = z.infer<typeof ParsedTranscript>;

export interface ParseOptions {
  /**
   * Cut tool outputs and thinking longer than this (default 4000 characters), keeping their beginning and their end
   * (where runners print their summaries). User and assistant prose, compaction summaries and tool inputs are kept
   * whole.
   */
  maxTextLength?: number;
  /** Continue a transcript read before: the text starts after line `startLine` (default 0). */
  startLine?: number;
  /** The `state` of the parse that read the lines before `startLine`: usage so far, open tool calls... */
  state?: unknown;
  /**
   * The model calls other transcripts of the same workflow counted (`recentCallsOf` their states): this one's copies
   * of them (a forked conversation's first lines) are not counted again.
   */
  countedElsewhere?: ReadonlySet<string>;
}
