import { z } from 'zod';
import { runsOn } from '../sub-agent-answers.js';
import { tagText } from '../tag-text.js';
import { optionalTokenCount } from '../token-count.js';
import type { CallUsage, TranscriptBuilder } from '../transcript-builder.js';
import type { EntryRole, ToolInfo } from '../transcript-types.js';
import { describeCall } from '../../core/call-text.js';
import { CHARS_PER_TOKEN, roughTokens } from '../../core/rough-tokens.js';

/**
 * The Anthropic message object as Claude Code writes it in transcripts and in stream-json. Schemas are loose:
 * unknown keys pass, and a count that is not a number (normalised captures write "<USAGE>") reads as absent.
 */
const count = optionalTokenCount;

export const AnthropicUsage = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
});

export const ContentBlock = z.looseObject({
  type: z.string(),
  text: z.string().optional().catch(undefined),
  thinking: z.string().optional().catch(undefined),
  id: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional().catch(undefined),
  content: z.unknown().optional(),
  is_error: z.boolean().optional().catch(undefined),
});
export type ContentBlock = z.infer<typeof ContentBlock>;

export const AnthropicMessage = z.looseObject({
  id: z.string().optional().catch(undefined),
  model: z.string().optional().catch(undefined),
  role: z.string().optional().catch(undefined),
  content: z.union([z.string(), z.array(ContentBlock)]).catch(''),
  usage: AnthropicUsage.optional().catch(undefined),
});
export type AnthropicMessage = z.infer<typeof AnthropicMessage>;

export function callUsage(usage: z.infer<typeof AnthropicUsage>): CallUsage {
  return {
    input_tokens: usage.input_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  };
}

/**
 * The rough tokens of what a model message shows it wrote: its text, thinking and tool inputs (a thinking block
 * whose text the transcript left out counts nothing).
 */
export function writtenTokens(message: AnthropicMessage): number {
  if (typeof message.content === 'string') return roughTokens(message.content);
  let chars = 0;
  for (const block of message.content) {
    chars += (block.text?.length ?? 0) + (block.thinking?.length ?? 0);
    if (block.input !== undefined) chars += JSON.stringify(block.input)?.length ?? 0;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The text of a tool_result's content: a string, or text blocks (images and others are named, not inlined). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part !== 'object' || part === null) return '';
      const p = part as Record<string, unknown>;
      return typeof p.text === 'string' ? p.text : `[${typeof p.type === 'string' ? p.type : 'part'}]`;
    })
    .filter((s) => s !== '')
    .join('\n');
}

const exitCodePattern = /^(?:Error: )?Exit code (\d+)\b/m;

/**
 * A Bash result's exit code: stated in the text ("Exit code 2") on failure; 0 when the structured result (stdout
 * present) says it ran and the agent did not flag an error. null when nothing says.
 */
export function exitCodeOf(text: string, isError: boolean | undefined, detail: unknown): number | null {
  const fromDetail = typeof detail === 'string' ? exitCodePattern.exec(detail) : null;
  const match = fromDetail ?? exitCodePattern.exec(text.slice(0, 200));
  if (match?.[1]) return Number(match[1]);
  if (!isError && typeof detail === 'object' && detail !== null && 'stdout' in detail) return 0;
  return null;
}

export interface MessagePlace {
  line: number;
  at: string | null;
  sidechain: boolean;
  /** Tool-specific result detail (`toolUseResult` / `tool_use_result`), used for exit codes. */
  detail?: unknown;
}

/**
 * A background task's end, as Claude Code tells the agent (a user-role `<task-notification>` with the tool use it
 * belongs to, its status and a summary such as `Background command "..." completed (exit code 0)`): the result of
 * that tool call when it failed, null otherwise. A task the agent stopped itself (`killed`) is not a failure.
 */
export function backgroundFailure(
  text: string,
): { tool_use_id: string | null; task_id: string | null; exit_code: number | null; text: string } | null {
  if (!/^\s*<task-notification>/.test(text)) return null;
  const tag = (name: string) => tagText(text, name);
  const status = tag('status');
  const summary = tag('summary') ?? '';
  const code = /exit code (-?\d+)/i.exec(summary)?.[1];
  const exitCode = code === undefined ? null : Number(code);
  if (status !== 'failed' && !(exitCode !== null && exitCode !== 0)) return null;
  const result = tag('result');
  return {
    tool_use_id: tag('tool-use-id'),
    task_id: tag('task-id'),
    exit_code: exitCode,
    text: [summary || `background task ${status ?? 'failed'}`, result].filter(Boolean).join('\n'),
  };
}

/** The failure a background-task notification reports, as a failed result of the call that started the task. */
export function addBackgroundFailure(builder: TranscriptBuilder, text: string, place: MessagePlace): void {
  const failure = backgroundFailure(text);
  if (!failure) return;
  builder.add({
    line: place.line,
    at: place.at,
    sidechain: place.sidechain,
    role: 'tool',
    kind: 'tool_result',
    text: failure.text,
    tool: {
      id: failure.tool_use_id ?? (failure.task_id ? (builder.backgroundCall(failure.task_id) ?? null) : null),
      name: null,
      input: null,
      is_error: true,
      exit_code: failure.exit_code,
    },
  });
}

/** A Bash call left running in the background (`run_in_background`, or moved there by the user). */
export const startedPattern = /running in background with ID: (\w+)/;

/**
 * A read of a background command that has ended (TaskOutput in 2.1.x, BashOutput in 2.0.x: `<status>completed|failed
 * </status>` and `<exit_code>N</exit_code>` in the result) reports on the call that started the command: the result
 * carries that call's id, so its command, its exit code and its failure are read as that command's, and names the
 * read (`polled_by`), which returned with it. A read while it still runs stays the read's own.
 */
function backgroundEnd(
  builder: TranscriptBuilder,
  readId: string | undefined,
  call: { name: string | null; input: unknown } | undefined,
  text: string,
): ToolInfo | null {
  if (call?.name !== 'TaskOutput' && call?.name !== 'BashOutput') return null;
  const input =
    typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>) : {};
  const taskId = input.task_id ?? input.bash_id;
  const origin = typeof taskId === 'string' ? builder.backgroundCall(taskId) : undefined;
  const status = /<status>(\w+)<\/status>/.exec(text.slice(0, 600))?.[1];
  if (!origin || (status !== 'completed' && status !== 'failed')) return null;
  const code = /<exit_code>(-?\d+)<\/exit_code>/.exec(text.slice(0, 600))?.[1];
  const exitCode = code === undefined ? null : Number(code);
  const failed = status === 'failed' || (exitCode !== null && exitCode !== 0);
  return {
    id: origin,
    name: null,
    input: null,
    is_error: failed,
    exit_code: exitCode ?? (failed ? null : 0),
    // the read returned too: its answer is the command's end
    ...(readId && readId !== origin ? { polled_by: readId } : {}),
  };
}

/** Turn one message's content into entries: text, thinking, tool calls, tool results. */
export function addMessageContent(
  builder: TranscriptBuilder,
  role: EntryRole,
  message: AnthropicMessage,
  place: MessagePlace,
): void {
  const base = { line: place.line, at: place.at, sidechain: place.sidechain };
  if (typeof message.content === 'string') {
    if (message.content.trim() !== '') builder.add({ ...base, role, kind: 'text', text: message.content });
    if (role === 'user') addBackgroundFailure(builder, message.content, place);
    return;
  }
  for (const block of message.content) {
    if (block.type === 'text' && block.text !== undefined) {
      if (block.text.trim() !== '') builder.add({ ...base, role, kind: 'text', text: block.text });
    } else if (block.type === 'thinking' && block.thinking) {
      builder.add({ ...base, role, kind: 'thinking', text: block.thinking });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      const tool = { id: block.id ?? null, name: block.name ?? null, input: block.input ?? null };
      builder.add({
        ...base,
        role: 'assistant',
        kind: 'tool_call',
        text: describeCall(tool.name, tool.input),
        tool: { ...tool, is_error: null, exit_code: null },
      });
    } else if (block.type === 'tool_result') {
      const text = resultText(block.content);
      const call = block.tool_use_id ? builder.toolCall(block.tool_use_id) : undefined;
      const isShell = call?.name === 'Bash' || call === undefined;
      const started = isShell ? startedPattern.exec(text.slice(0, 300))?.[1] : undefined;
      if (started && block.tool_use_id) builder.startedInBackground(started, block.tool_use_id);
      // a sub-agent left running: its task notification, maybe much later, reports on this call
      if (block.tool_use_id && runsOn(call?.name, text)) builder.holdCall(block.tool_use_id);
      const ended = backgroundEnd(builder, block.tool_use_id, call, text);
      builder.add({
        ...base,
        role: 'tool',
        kind: 'tool_result',
        text,
        tool: ended ?? {
          id: block.tool_use_id ?? null,
          name: null,
          input: null,
          is_error: block.is_error ?? null,
          exit_code: isShell ? exitCodeOf(text, block.is_error, place.detail) : null,
        },
      });
    }
  }
}

/**
 * The user-role message Claude Code writes after a compaction, holding the summary of what came before (flagged
 * `isCompactSummary` in transcripts of recent versions; known by its opening words in stream-json and older ones).
 */
export const compactSummary = /^\s*This session is being continued from a previous conversation/;

/**
 * The feedback of a Stop (or SubagentStop) hook that blocked the agent from stopping: Claude Code hands it to the
 * agent as a user-role message (flagged isMeta in transcripts, not always flagged in stream-json), never typed by the
 * user.
 */
export const stopHookFeedback = /^\s*(?:Subagent)?Stop hook feedback:/;
