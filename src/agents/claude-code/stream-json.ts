import { z } from 'zod';
import { JsonlParser } from '../jsonl-parser.js';
import { describeIssues } from '../../core/errors.js';
import { optionalTokenCount } from '../token-count.js';
import type { CallUsage } from '../transcript-builder.js';
import type {
  Compaction,
  ParseOptions,
  ParsedTranscript,
  RunResult,
  TranscriptEntry,
} from '../transcript-types.js';
import {
  AnthropicMessage,
  AnthropicUsage,
  addMessageContent,
  callUsage,
  compactSummary,
  stopHookFeedback,
} from './anthropic-message.js';
import { runEndedShort } from './run-end.js';

/** Events of `claude -p --output-format stream-json --verbose`, loosely (unknown keys and events pass). */
const optionalString = z.string().optional().catch(undefined);
const optionalNumber = z.number().nonnegative().optional().catch(undefined);

const ModelUsage = z.looseObject({
  inputTokens: optionalTokenCount,
  outputTokens: optionalTokenCount,
  cacheReadInputTokens: optionalTokenCount,
  cacheCreationInputTokens: optionalTokenCount,
  contextWindow: optionalTokenCount,
});

export const StreamJsonLine = z.looseObject({
  type: z.string(),
  subtype: optionalString,
  session_id: optionalString,
  uuid: optionalString,
  cwd: optionalString,
  model: optionalString,
  tools: z.array(z.string()).optional().catch(undefined),
  message: z.unknown().optional(),
  parent_tool_use_id: z.string().nullable().optional().catch(undefined),
  tool_use_result: z.unknown().optional(),
  is_error: z.boolean().optional().catch(undefined),
  isSynthetic: z.boolean().optional().catch(undefined),
  timestamp: optionalString,
  result: optionalString,
  /** What a run that ended short of its answer said of why (`error_max_turns`: "Reached maximum number of turns (3)"). */
  errors: z.array(z.string()).optional().catch(undefined),
  duration_ms: optionalNumber,
  num_turns: optionalNumber,
  total_cost_usd: optionalNumber,
  cost_usd: optionalNumber,
  usage: AnthropicUsage.optional().catch(undefined),
  modelUsage: z.record(z.string(), ModelUsage).optional().catch(undefined),
  compact_metadata: z
    .looseObject({
      trigger: z.enum(['auto', 'manual']).optional().catch(undefined),
      pre_tokens: optionalTokenCount,
    })
    .optional()
    .catch(undefined),
});
type StreamJsonLine = z.infer<typeof StreamJsonLine>;

export type StreamJsonEvent =
  | {
      type: 'init';
      line: number;
      session_id: string | null;
      model: string | null;
      tools: string[];
      cwd: string | null;
    }
  | { type: 'entry'; entry: TranscriptEntry }
  | { type: 'compaction'; compaction: Compaction }
  | { type: 'result'; result: RunResult; transcript: ParsedTranscript };

export interface StreamJsonOptions extends ParseOptions {
  /** Called for each event as soon as its line is complete (a live child process's stdout can be fed). */
  onEvent?: (event: StreamJsonEvent) => void;
}

/**
 * Incremental parser for Claude Code stream-json output. `push` accepts chunks of any size; `end()` flushes the
 * last line and returns the parsed run. Malformed lines are skipped and reported with their line numbers.
 */
export class StreamJsonParser extends JsonlParser {
  private readonly onEvent: ((event: StreamJsonEvent) => void) | undefined;

  constructor(options: StreamJsonOptions = {}) {
    super('claude-code-stream-json', options);
    this.onEvent = options.onEvent;
  }

  protected line(line: number, value: unknown): void {
    const parsed = StreamJsonLine.safeParse(value);
    if (!parsed.success)
      return this.builder.skip(line, `not a stream-json event: ${describeIssues(parsed.error.issues)}`);
    const before = this.builder.entryCount;
    this.record(line, parsed.data);
    if (this.onEvent)
      for (const entry of this.builder.entriesSince(before)) this.onEvent({ type: 'entry', entry });
    if (parsed.data.type === 'result' && this.builder.result && this.onEvent) {
      this.onEvent({ type: 'result', result: this.builder.result, transcript: this.snapshot() });
    }
  }

  private record(line: number, e: StreamJsonLine): void {
    const b = this.builder;
    b.sessionId ??= e.session_id ?? null;
    if (e.type === 'system') return this.system(line, e);
    if (e.type === 'result') return this.result(line, e);
    if (e.type !== 'assistant' && e.type !== 'user') return;
    const message = AnthropicMessage.safeParse(e.message);
    if (!message.success) {
      return b.skip(line, `${e.type} event without a valid message: ${describeIssues(message.error.issues)}`);
    }
    const m = message.data;
    const sidechain = typeof e.parent_tool_use_id === 'string';
    const at = e.timestamp ?? null;
    if (e.type === 'assistant') {
      if (m.model && !sidechain) b.model ??= m.model;
      if (m.usage) b.usage(m.id ?? null, callUsage(m.usage), { sidechain, copyable: true });
    }
    const text = typeof m.content === 'string' ? m.content : m.content.map((c) => c.text ?? '').join('\n');
    if (e.type === 'user' && (e.isSynthetic || stopHookFeedback.test(text))) {
      // written by Claude Code itself (a Stop hook's feedback), not typed by the user
      const kind = compactSummary.test(text) ? 'summary' : 'meta';
      return void b.add({ line, at, role: 'system', kind, text, sidechain });
    }
    addMessageContent(b, e.type, m, { line, at, sidechain, detail: e.tool_use_result });
  }

  private system(line: number, e: StreamJsonLine): void {
    const b = this.builder;
    if (e.subtype === 'init') {
      b.model = e.model ?? b.model;
      b.cwd = e.cwd ?? b.cwd;
      this.onEvent?.({
        type: 'init',
        line,
        session_id: e.session_id ?? null,
        model: e.model ?? null,
        tools: e.tools ?? [],
        cwd: e.cwd ?? null,
      });
    } else if (e.subtype === 'compact_boundary') {
      const meta = e.compact_metadata;
      const at = e.timestamp ?? null;
      b.compaction({ line, at, trigger: meta?.trigger ?? null, pre_tokens: meta?.pre_tokens ?? null });
      b.add({ line, at, role: 'system', kind: 'compaction', text: 'Conversation compacted' });
      const compaction = b.lastCompaction;
      if (compaction) this.onEvent?.({ type: 'compaction', compaction });
    }
  }

  private result(line: number, e: StreamJsonLine): void {
    const b = this.builder;
    const subtype = e.subtype ?? 'unknown';
    const isError = e.is_error ?? subtype.startsWith('error');
    const said = e.result ?? (e.errors?.length ? e.errors.join('; ') : null);
    // a turn limit, a budget, an error during execution: how the run ended, said as what it is (not an API error)
    const short = isError ? runEndedShort(subtype, said, e.num_turns ?? null) : null;
    b.result = { line, subtype, is_error: isError, text: short ?? e.result ?? null };
    b.costUsd = e.total_cost_usd ?? e.cost_usd ?? b.costUsd;
    b.reportedDurationMs = e.duration_ms ?? b.reportedDurationMs;
    b.reportedTurns = e.num_turns ?? b.reportedTurns;
    const models = Object.entries(e.modelUsage ?? {});
    if (models.length > 0) {
      // modelUsage covers every model the run used and reproduces the billed cost; result.usage does not.
      const totals: CallUsage = {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      };
      for (const [, u] of models) {
        totals.input_tokens += u.inputTokens ?? 0;
        totals.output_tokens += u.outputTokens ?? 0;
        totals.cache_read_input_tokens += u.cacheReadInputTokens ?? 0;
        totals.cache_creation_input_tokens += u.cacheCreationInputTokens ?? 0;
      }
      b.reportedTotals = totals;
      const main = (b.model ? e.modelUsage?.[b.model] : undefined) ?? models[0]?.[1];
      b.contextWindow = main?.contextWindow ?? b.contextWindow;
    } else if (e.usage && e.usage.input_tokens !== undefined) {
      b.reportedTotals = callUsage(e.usage);
    }
    // Claude Code's note of a run it ended short is no error of the agent's API (an `error` entry is read as one: the
    // turn's request to retry) nor the agent's words (a `result`): it is its own
    if (short)
      return void b.add({ line, at: e.timestamp ?? null, role: 'system', kind: 'meta', text: short });
    const kind = isError ? 'error' : 'result';
    const text = e.result ?? (isError ? `run ended with ${subtype}` : '');
    if (text !== '') b.add({ line, at: e.timestamp ?? null, role: 'system', kind, text });
  }
}

/** Parse a complete stream-json capture. */
export function parseStreamJson(text: string, options: StreamJsonOptions = {}): ParsedTranscript {
  const parser = new StreamJsonParser(options);
  parser.push(text);
  return parser.end();
}
