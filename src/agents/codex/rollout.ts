import { z } from 'zod';
import { JsonlParser } from '../jsonl-parser.js';
import { describeIssues } from '../line-buffer.js';
import { TranscriptBuilder } from '../transcript-builder.js';
import type { ParseOptions, ParsedTranscript, TranscriptEntry } from '../transcript-types.js';
import { commandOf, readArguments, readCodexOutput } from './codex-output.js';
import { ExecJsonLine, recordExecJson } from './exec-json.js';

/**
 * Codex CLI session rollouts (`~/.codex/sessions/.../rollout-*.jsonl`: `{timestamp, type, payload}` lines) and
 * `codex exec --json` output (`thread.started`, `item.completed`, `turn.completed` ...). The format is detected per
 * line, so either can be fed. Malformed lines are skipped and reported with their line numbers.
 */
const str = z.string().optional().catch(undefined);
const num = z.number().optional().catch(undefined);

export const RolloutLine = z.looseObject({
  timestamp: str,
  type: z.string(),
  payload: z.looseObject({ type: str }),
});
type RolloutLine = z.infer<typeof RolloutLine>;

const TokenCounts = z.looseObject({
  input_tokens: z.number().nonnegative().catch(0),
  cached_input_tokens: z.number().nonnegative().catch(0),
  output_tokens: z.number().nonnegative().catch(0),
  total_tokens: z.number().nonnegative().catch(0),
});
type TokenCounts = z.infer<typeof TokenCounts>;

const Payload = z.looseObject({
  id: str,
  cwd: str,
  model: str,
  role: str,
  name: str,
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
  command: z.unknown().optional(),
  model_context_window: num,
  info: z
    .looseObject({
      total_token_usage: TokenCounts.optional().catch(undefined),
      last_token_usage: TokenCounts.optional().catch(undefined),
      model_context_window: num,
    })
    .nullable()
    .optional()
    .catch(undefined),
});
type Payload = z.infer<typeof Payload>;

const injected =
  /^\s*(<environment_context>|<user_instructions>|<permissions|# AGENTS\.md|<INSTRUCTIONS>|<turn_aborted>)/;

const normalised = (t: TokenCounts) => ({
  input_tokens: Math.max(0, t.input_tokens - t.cached_input_tokens),
  cache_read_input_tokens: t.cached_input_tokens,
  cache_creation_input_tokens: 0,
  output_tokens: t.output_tokens,
});

export class CodexRolloutParser extends JsonlParser {
  private readonly said = { user: new Set<string>(), assistant: new Set<string>() };
  private readonly lastResult = new Map<string, TranscriptEntry>();
  private readonly exitCodes = new Map<string, number>();
  private readonly sessions = new Map<number, string>();
  private compactedPending = false;
  private execJson: boolean | null = null;

  constructor(options: ParseOptions = {}) {
    super(new TranscriptBuilder('codex-rollout', options.maxTextLength));
  }

  override snapshot(): ParsedTranscript {
    const parsed = super.snapshot();
    return this.execJson ? { ...parsed, format: 'codex-exec-json' } : parsed;
  }

  protected line(line: number, value: unknown): void {
    const rollout = RolloutLine.safeParse(value);
    if (rollout.success) {
      const payload = Payload.safeParse(rollout.data.payload);
      if (!payload.success)
        return this.builder.skip(line, `bad payload: ${describeIssues(payload.error.issues)}`);
      this.execJson ??= false;
      return this.record(line, rollout.data, payload.data);
    }
    const exec = ExecJsonLine.safeParse(value);
    if (exec.success) {
      this.execJson ??= true;
      return recordExecJson(this.builder, line, exec.data);
    }
    this.builder.skip(line, `not a Codex line: ${describeIssues(rollout.error.issues)}`);
  }

  private record(line: number, l: RolloutLine, p: Payload): void {
    const b = this.builder;
    const at = l.timestamp ?? null;
    b.seen(at);
    if (l.type === 'session_meta') {
      b.sessionId ??= p.id ?? null;
      b.cwd ??= p.cwd ?? null;
    } else if (l.type === 'turn_context') {
      b.model = p.model ?? b.model;
      b.cwd ??= p.cwd ?? null;
    } else if (l.type === 'compacted') {
      b.compaction({ line, at, trigger: 'auto', pre_tokens: null });
      b.add({ line, at, role: 'system', kind: 'compaction', text: 'Context compacted' });
      this.compactedPending = true;
    } else if (l.type === 'response_item') {
      this.responseItem(line, at, l.payload.type, p);
    } else if (l.type === 'event_msg') {
      this.event(line, at, l.payload.type, p);
    }
  }

  private responseItem(line: number, at: string | null, type: string | undefined, p: Payload): void {
    const b = this.builder;
    if (type === 'message' && (p.role === 'user' || p.role === 'assistant')) {
      for (const text of textsOf(p.content)) this.say(line, at, p.role, text);
    } else if (type === 'reasoning') {
      for (const text of textsOf(p.summary)) b.add({ line, at, role: 'assistant', kind: 'thinking', text });
    } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'web_search_call') {
      const name = p.name ?? (type === 'web_search_call' ? 'web_search' : null);
      const input = type === 'function_call' ? readArguments(p.arguments) : (p.input ?? p.action ?? null);
      const text = `${name ?? 'tool'}: ${commandOf(input) ?? (typeof input === 'string' ? input : JSON.stringify(input))}`;
      const tool = { id: p.call_id ?? null, name, input, is_error: null, exit_code: null };
      b.add({ line, at, role: 'assistant', kind: 'tool_call', text, tool });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      this.output(line, at, p);
    }
  }

  private output(line: number, at: string | null, p: Payload): void {
    const out = readCodexOutput(p.output);
    const callId = p.call_id ?? null;
    const call = callId ? this.builder.toolCall(callId) : undefined;
    // A write_stdin poll finishes the exec_command that opened its session: report it as that command's result.
    const polled = call?.name === 'write_stdin' ? sessionOf(call.input) : null;
    const originId = (polled !== null ? this.sessions.get(polled) : undefined) ?? callId;
    const origin = originId ? this.builder.toolCall(originId) : undefined;
    if (out.running_session !== null && originId) this.sessions.set(out.running_session, originId);
    const code = out.exit_code ?? (originId ? this.exitCodes.get(originId) : undefined) ?? null;
    const entry = this.builder.add({
      line,
      at,
      role: 'tool',
      kind: 'tool_result',
      text: out.text,
      tool: {
        id: originId,
        name: origin?.name ?? null,
        input: origin?.input ?? null,
        is_error: code === null ? null : code !== 0,
        exit_code: code,
      },
    });
    if (originId) this.lastResult.set(originId, entry);
  }

  private event(line: number, at: string | null, type: string | undefined, p: Payload): void {
    const b = this.builder;
    const message = typeof p.message === 'string' ? p.message : '';
    if (type === 'user_message' && message) this.say(line, at, 'user', message);
    else if (type === 'agent_message' && message) this.say(line, at, 'assistant', message);
    else if (type === 'task_started' && p.model_context_window) b.contextWindow = p.model_context_window;
    else if (type === 'token_count' && p.info) {
      const { total_token_usage: total, last_token_usage: last, model_context_window: window } = p.info;
      if (window) b.contextWindow = window;
      if (total) b.reportedTotals = normalised(total);
      if (last && total) b.usage(`total-${total.total_tokens}`, normalised(last));
    } else if (type === 'exec_command_end' && p.call_id && p.exit_code !== undefined) {
      this.exitCodes.set(p.call_id, p.exit_code);
      const entry = this.lastResult.get(p.call_id);
      if (entry?.tool && entry.tool.exit_code === null) {
        entry.tool.exit_code = p.exit_code;
        entry.tool.is_error = p.exit_code !== 0;
      }
    } else if (type === 'patch_apply_end' && p.call_id && p.success === false) {
      this.exitCodes.set(p.call_id, 1);
    } else if (type === 'context_compacted') {
      if (!this.compactedPending) {
        b.compaction({ line, at, trigger: 'auto', pre_tokens: null });
        b.add({ line, at, role: 'system', kind: 'compaction', text: 'Context compacted' });
      }
      this.compactedPending = false;
    } else if ((type === 'error' || type === 'stream_error') && message) {
      b.add({ line, at, role: 'system', kind: 'error', text: message });
    }
  }

  /** User and assistant text is written twice (response_item and event_msg): record it once. */
  private say(line: number, at: string | null, role: 'user' | 'assistant', text: string): void {
    const key = text.trim();
    if (key === '' || this.said[role].has(key)) return;
    this.said[role].add(key);
    const kind = role === 'user' && injected.test(text) ? 'meta' : 'text';
    this.builder.add({ line, at, role: kind === 'meta' ? 'system' : role, kind, text });
  }
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    const text = typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined;
    return typeof text === 'string' && text.trim() !== '' ? [text] : [];
  });
}

function sessionOf(input: unknown): number | null {
  const id =
    typeof input === 'object' && input !== null ? (input as { session_id?: unknown }).session_id : null;
  return typeof id === 'number' ? id : null;
}

/** Parse a whole Codex rollout or `codex exec --json` capture. */
export function parseCodexRollout(text: string, options: ParseOptions = {}): ParsedTranscript {
  const parser = new CodexRolloutParser(options);
  parser.push(text);
  return parser.end();
}
