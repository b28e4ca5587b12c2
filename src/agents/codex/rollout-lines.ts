import { z } from 'zod';
import { optionalTokenCount, tokenCount } from '../token-count.js';

/** The lines of a Codex rollout as the parser reads them (loosely: unknown fields and types pass). */
const str = z.string().optional().catch(undefined);
const num = z.number().optional().catch(undefined);

export const RolloutLine = z.looseObject({
  timestamp: str,
  type: z.string(),
  payload: z.looseObject({ type: str }),
});
export type RolloutLine = z.infer<typeof RolloutLine>;

export const TokenCounts = z.looseObject({
  input_tokens: tokenCount.catch(0),
  cached_input_tokens: tokenCount.catch(0),
  output_tokens: tokenCount.catch(0),
  total_tokens: tokenCount.catch(0),
});
export type TokenCounts = z.infer<typeof TokenCounts>;

export const Payload = z.looseObject({
  id: str,
  cwd: str,
  model: str,
  role: str,
  name: str,
  namespace: str,
  call_id: str,
  message: z.unknown().optional(),
  content: z.unknown().optional(),
  summary: z.unknown().optional(),
  arguments: z.unknown().optional(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  action: z.unknown().optional(),
  exit_code: num,
  success: z.boolean().optional().catch(undefined),
  status: str,
  /** A `turn_aborted` event's cause: `interrupted` (the user), `replaced` (a new turn took its place), ... */
  reason: str,
  /** An agent message's phase: `commentary` on its way, `final_answer` to end the turn. */
  phase: str,
  result: z.unknown().optional(),
  command: z.unknown().optional(),
  item: z.unknown().optional(),
  /** A `session_meta` line's repository: its `branch` (absent on a detached HEAD). */
  git: z.looseObject({ branch: str }).nullable().optional().catch(undefined),
  /** An `mcp_tool_call_end` event's call: `{server, tool, arguments}`. */
  invocation: z.unknown().optional(),
  model_context_window: optionalTokenCount,
  info: z
    .looseObject({
      total_token_usage: TokenCounts.optional().catch(undefined),
      last_token_usage: TokenCounts.optional().catch(undefined),
      model_context_window: optionalTokenCount,
    })
    .nullable()
    .optional()
    .catch(undefined),
});
export type Payload = z.infer<typeof Payload>;

/**
 * Context Codex writes as user messages that the user did not type: instructions, environment, skills, a shell
 * command the user ran themselves (`!cmd`, with its template line), notifications from sub-agents and hooks.
 */
export const injected =
  /^\s*(?:<(?:environment_context|user_instructions|permissions|INSTRUCTIONS|turn_aborted|skill|user_shell_command|subagent_notification|hook_prompt|additional_context|recommended_plugins|collaboration_mode|model_switch)\b|# AGENTS\.md|The user ran the following shell command themselves\b)/;

export const normalised = (t: TokenCounts) => ({
  input_tokens: Math.max(0, t.input_tokens - t.cached_input_tokens),
  cache_read_input_tokens: t.cached_input_tokens,
  cache_creation_input_tokens: 0,
  output_tokens: t.output_tokens,
});

/** Response items as the rollouts before the envelope wrote them, one a line. */
const bareItemTypes = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'local_shell_call',
]);

/** A bare-era line (see CodexRolloutParser.bare): a header, a state marker or a bare response item as an object, or null. */
export function bareLine(value: unknown): Record<string, unknown> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if ('payload' in v) return null;
  if (v.type === undefined)
    return v.record_type !== undefined || ('id' in v && 'instructions' in v) ? v : null;
  return typeof v.type === 'string' && bareItemTypes.has(v.type) ? v : null;
}

/** Response items that call a tool, with the tool's name when the item does not carry one. */
export const toolCallTypes: Record<string, string | null> = {
  function_call: null,
  custom_tool_call: null,
  web_search_call: 'web_search',
  local_shell_call: 'local_shell',
};

/**
 * The markers Codex puts around an image the user attached (`<image name=[Image #1]>`, the image, `</image>`), as
 * parts of their own or before the prompt's text: not words of the user.
 */
export const imageMarker = /<image\b[^>\n]*>\s*(?:<\/image>)?|<\/image>/g;
