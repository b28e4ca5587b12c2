import { z } from 'zod';

/**
 * What one parse of a transcript hands to the parse of its next lines (an import reads only what was appended
 * since the last one). Small and JSON: it is stored with the import marker. A state that does not parse is ignored
 * (the parse starts fresh), never fatal.
 */
const count = z.number().int().nonnegative();
const CallUsage = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
});

export const BuilderState = z.object({
  v: z.literal(1),
  session_id: z.string().nullable(),
  model: z.string().nullable(),
  side_model: z.string().nullable(),
  cwd: z.string().nullable(),
  branch: z.string().nullable().default(null),
  context_window: z.number().nullable(),
  cost_usd: z.number().nullable(),
  reported_turns: z.number().nullable(),
  reported_duration_ms: z.number().nullable(),
  reported_totals: CallUsage.nullable(),
  closed_sums: CallUsage,
  closed_calls: count,
  /** `copied`: a copy of a call another transcript counted (a fork's first lines), not counted here. */
  open_call: z
    .object({
      id: z.string(),
      usage: CallUsage,
      copied: z.boolean().optional(),
      /** What its lines so far recorded and wrote (`TranscriptBuilder.outputCount`), when they said. */
      written: z.object({ recorded: count, written: count }).optional(),
    })
    .nullable(),
  /** The latest main-chain calls (`callKey`), for another transcript of the workflow to know its copies by. */
  recent_calls: z.array(z.string()).default([]),
  context_tokens: z.number().nullable(),
  peak_context_tokens: z.number().nullable(),
  side_context_tokens: z.number().nullable(),
  prompts: count,
  tool_call_count: count,
  first: z.string().nullable(),
  last: z.string().nullable(),
  /** The agent's time by turns (`AgentTime`); absent in a state kept before it was. */
  agent_time: z
    .object({ worked_ms: count, turn_from: z.string().nullable(), turn_to: z.string().nullable() })
    .optional(),
  anonymous_calls: count,
  compactions: count,
  /** A call's output count was estimated from what it wrote (`TranscriptBuilder.outputCount`). */
  output_estimated: z.boolean().optional(),
  /**
   * The tool calls a later line may refer to (`TranscriptBuilder.carriedCalls`), inputs slimmed. A state kept before
   * `open_calls` was carried the latest 200 calls, every one: they are read, and count as answered (an import reads
   * on at a Stop, when every call of the turn has its result).
   */
  tool_calls: z.array(z.tuple([z.string(), z.object({ name: z.string().nullable(), input: z.unknown() })])),
  /** The calls of `tool_calls` whose result has not come yet. */
  open_calls: z.array(z.string()).default([]),
  /** The calls of `tool_calls` a later line may report on after their result came (`TranscriptBuilder.holdCall`). */
  held_calls: z.array(z.string()).default([]),
  /** Background tasks (Claude Code's task id) and the tool call that started them. */
  background: z.array(z.tuple([z.string(), z.string()])).default([]),
});
export type BuilderState = z.infer<typeof BuilderState>;

/**
 * The parts of a tool input later lines can refer to: commands, paths, session ids. Strings are cut to `max`
 * characters, arrays of strings longer than that and nested objects are dropped.
 */
export function slimInput(input: unknown, max = 2000): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return typeof input === 'string' ? input.slice(0, max) : input;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v.length > max ? v.slice(0, max) : v;
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string') && v.join(' ').length <= max)
      out[k] = v;
  }
  return out;
}

/** The calls of `map` that `kept` names (each with how long a string of its input may stay), in the map's order. */
export function slimCalls(
  map: Map<string, { name: string | null; input: unknown }>,
  kept: ReadonlyMap<string, number>,
): [string, { name: string | null; input: unknown }][] {
  return [...map.entries()].flatMap(([id, call]): [string, { name: string | null; input: unknown }][] => {
    const max = kept.get(id);
    return max === undefined ? [] : [[id, { name: call.name, input: slimInput(call.input, max) }]];
  });
}

/** A format parser's own carry-over beside the builder's. */
export const ParserState = z.object({
  builder: z.unknown(),
  format: z.unknown().optional(),
});
export type ParserState = z.infer<typeof ParserState>;

/** The builder's part of a stored parse state; null for a state that does not parse. */
function builderOf(state: unknown): BuilderState | null {
  const parsed = ParserState.safeParse(state);
  const builder = parsed.success ? BuilderState.safeParse(parsed.data.builder) : null;
  return builder?.success ? builder.data : null;
}

/**
 * The latest model calls a transcript's parse state names (`callKey`s): another transcript of the same workflow that
 * holds them holds copies (a forked conversation), counted once. Nothing for a state that does not parse.
 */
export function recentCallsOf(state: unknown): string[] {
  return builderOf(state)?.recent_calls ?? [];
}

/** The folder a transcript's parse state says the agent worked in; null when unknown. */
export function cwdOf(state: unknown): string | null {
  return builderOf(state)?.cwd ?? null;
}

/** The branch a transcript's parse state says the agent's folder had checked out (the latest); null when unknown. */
export function branchOf(state: unknown): string | null {
  return builderOf(state)?.branch ?? null;
}
