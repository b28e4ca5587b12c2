import type {
  Compaction,
  EntryKind,
  EntryRole,
  ParsedTranscript,
  RunResult,
  SkippedLine,
  ToolInfo,
  TranscriptEntry,
  TranscriptFormat,
  TranscriptUsage,
} from './transcript-types.js';

/** Token counts of one model call, in the normalised convention (input excludes cached prompt parts). */
export interface CallUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface EntryInput {
  line: number;
  at: string | null;
  role: EntryRole;
  kind: EntryKind;
  text: string;
  tool?: ToolInfo | null;
  sidechain?: boolean;
}

const contextOf = (u: CallUsage) =>
  u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

/**
 * Accumulates what the format parsers find. Usage is recorded per model call id: a call written as several lines
 * (one per content block, each repeating a provisional usage) counts once, with the largest values seen.
 */
export class TranscriptBuilder {
  sessionId: string | null = null;
  model: string | null = null;
  cwd: string | null = null;
  contextWindow: number | null = null;
  costUsd: number | null = null;
  reportedTurns: number | null = null;
  reportedDurationMs: number | null = null;
  /** When set (a final report such as stream-json `result.usage`), replaces the per-call sums. */
  reportedTotals: CallUsage | null = null;
  result: RunResult | null = null;
  lines = 0;

  private readonly entries: TranscriptEntry[] = [];
  private readonly skipped: SkippedLine[] = [];
  private readonly compactions: Compaction[] = [];
  private readonly calls = new Map<string, CallUsage>();
  private readonly toolCalls = new Map<string, { name: string | null; input: unknown }>();
  private contextTokens: number | null = null;
  private sideContextTokens: number | null = null;
  /** The model of sidechain calls, used when a file holds only sub-agent activity. */
  sideModel: string | null = null;
  private lastMainCallId: string | null = null;
  private prompts = 0;
  private toolCallCount = 0;
  private first: string | null = null;
  private last: string | null = null;
  private anonymousCalls = 0;

  constructor(
    readonly format: TranscriptFormat,
    private readonly maxTextLength = 4000,
  ) {}

  skip(line: number, reason: string): void {
    this.skipped.push({ line, reason });
  }

  seen(at: string | null | undefined): void {
    if (!at) return;
    if (this.first === null || at < this.first) this.first = at;
    if (this.last === null || at > this.last) this.last = at;
  }

  add(input: EntryInput): TranscriptEntry {
    this.seen(input.at);
    const cut = input.text.length > this.maxTextLength;
    let tool = input.tool ?? null;
    if (tool && input.kind === 'tool_call') {
      this.toolCallCount += 1;
      if (tool.id) this.toolCalls.set(tool.id, { name: tool.name, input: tool.input });
    }
    if (tool && input.kind === 'tool_result' && tool.id) {
      const call = this.toolCalls.get(tool.id);
      if (call) tool = { ...tool, name: tool.name ?? call.name, input: tool.input ?? call.input };
    }
    if (input.role === 'user' && input.kind === 'text' && !input.sidechain) this.prompts += 1;
    const entry: TranscriptEntry = {
      line: input.line,
      at: input.at,
      role: input.role,
      kind: input.kind,
      text: cut ? input.text.slice(0, this.maxTextLength) : input.text,
      truncated: cut,
      tool,
      sidechain: input.sidechain ?? false,
    };
    this.entries.push(entry);
    return entry;
  }

  get entryCount(): number {
    return this.entries.length;
  }

  /** Entries added since the builder held `count` entries (for live event callbacks). */
  entriesSince(count: number): TranscriptEntry[] {
    return this.entries.slice(count);
  }

  get lastCompaction(): Compaction | undefined {
    return this.compactions.at(-1);
  }

  /** The tool call registered under `id`, if any. */
  toolCall(id: string): { name: string | null; input: unknown } | undefined {
    return this.toolCalls.get(id);
  }

  /**
   * Record the usage of one model call. `id` identifies the call (message id / request id); repeated ids keep the
   * maximum of each count. Main-chain calls update the current context size.
   */
  usage(id: string | null, usage: CallUsage, options: { sidechain?: boolean } = {}): void {
    const key = id ?? `anonymous-${(this.anonymousCalls += 1)}`;
    const prev = this.calls.get(key);
    const merged: CallUsage = prev
      ? {
          input_tokens: Math.max(prev.input_tokens, usage.input_tokens),
          output_tokens: Math.max(prev.output_tokens, usage.output_tokens),
          cache_creation_input_tokens: Math.max(
            prev.cache_creation_input_tokens,
            usage.cache_creation_input_tokens,
          ),
          cache_read_input_tokens: Math.max(prev.cache_read_input_tokens, usage.cache_read_input_tokens),
        }
      : usage;
    this.calls.set(key, merged);
    if (options.sidechain) {
      this.sideContextTokens = contextOf(merged);
      return;
    }
    this.contextTokens = contextOf(merged);
    if (this.lastMainCallId !== key) {
      this.lastMainCallId = key;
      const open = this.compactions.at(-1);
      if (open && open.post_tokens === null) open.post_tokens = this.contextTokens;
    }
  }

  /** Set the current context size directly (formats that report it, e.g. Codex last_token_usage). */
  context(tokens: number): void {
    this.contextTokens = tokens;
    const open = this.compactions.at(-1);
    if (open && open.post_tokens === null && open.pre_tokens !== tokens) open.post_tokens = tokens;
  }

  compaction(c: Omit<Compaction, 'post_tokens' | 'pre_tokens'> & { pre_tokens: number | null }): void {
    this.seen(c.at);
    this.compactions.push({ ...c, pre_tokens: c.pre_tokens ?? this.contextTokens, post_tokens: null });
    this.lastMainCallId = null;
  }

  build(): ParsedTranscript {
    const sums: CallUsage = this.reportedTotals ?? {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    if (!this.reportedTotals) {
      for (const u of this.calls.values()) {
        sums.input_tokens += u.input_tokens;
        sums.output_tokens += u.output_tokens;
        sums.cache_creation_input_tokens += u.cache_creation_input_tokens;
        sums.cache_read_input_tokens += u.cache_read_input_tokens;
      }
    }
    const span =
      this.first && this.last ? Math.max(0, Date.parse(this.last) - Date.parse(this.first)) : Number.NaN;
    const usage: TranscriptUsage = {
      ...sums,
      total_tokens: contextOf(sums) + sums.output_tokens,
      context_tokens: this.contextTokens ?? this.sideContextTokens,
      context_window: this.contextWindow,
      cost_usd: this.costUsd,
      num_turns: this.reportedTurns ?? this.prompts,
      llm_calls: this.calls.size,
      tool_calls: this.toolCallCount,
      duration_ms: this.reportedDurationMs ?? (Number.isFinite(span) ? span : null),
    };
    return {
      format: this.format,
      session_id: this.sessionId,
      model: this.model ?? this.sideModel,
      cwd: this.cwd,
      started_at: this.first,
      ended_at: this.last,
      entries: this.entries.map((e) => (e.tool ? { ...e, tool: { ...e.tool } } : { ...e })),
      usage,
      compactions: this.compactions.map((c) => ({ ...c })),
      result: this.result,
      skipped: [...this.skipped],
      lines: this.lines,
    };
  }
}
