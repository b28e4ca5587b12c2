import { AgentTime } from './agent-time.js';
import { isUserInterruption } from './user-interruption.js';
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
import { BuilderState, slimCalls } from './parser-state.js';
import { withoutTerminalCodes } from './terminal-codes.js';

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
  queued?: boolean;
  commentary?: boolean;
}

/** A call's recorded output count under a quarter of the rough tokens its lines show it wrote (at least 50). */
const provisional = (c: { recorded: number; written: number }) =>
  c.written >= 50 && c.recorded * 4 < c.written;

const contextOf = (u: CallUsage) =>
  u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

const zero = (): CallUsage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

const add = (a: CallUsage, b: CallUsage): CallUsage => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
  cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
  cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
});

/** Texts kept whole: what people and agents wrote; tool outputs and thinking are cut (head and tail kept). */
const keptWhole = (kind: EntryKind, role: EntryRole) =>
  kind === 'summary' || kind === 'result' || (kind === 'text' && (role === 'user' || role === 'assistant'));

/**
 * Lines kept from the middle of a cut output: git's `[branch hash] subject` line of a commit, which a pre-commit
 * hook's output (linters, a test run) can push far from the start, the lines that name a failing test, which a
 * runner prints between the tests' logs (go's `--- FAIL: TestX`, cargo's `test x ... FAILED`, TAP's `not ok`,
 * vitest's `FAIL file > name`, jest's `● suite › name`, ExUnit's `  1) test name (Module)`, `✗` / `×` / `✕` marks):
 * the run's summary counts them, and the summaries themselves when a chained command's output buries them (cargo's
 * `test result: ok. 2 passed`, vitest's ` Tests  3 passed (3)`, jest's `Tests: 3 passed`, pytest's `=== 5 passed
 * in 0.1s ===`, go's `ok  pkg  0.01s`, node's `# pass 5`).
 */
const keptLine = new RegExp(
  [
    String.raw`^\[[^\]\n]+ [0-9a-f]{7,64}\] .+$`,
    String.raw`^[ \t]*(?:---|===) FAIL: .+$`,
    String.raw`^test \S+ \.\.\. FAILED$`,
    String.raw`^[ \t]*not ok \d+ .+$`,
    String.raw`^[ \t]*FAIL[ \t]+\S+.*$`,
    String.raw`^[ \t]*● (?!Console)\S.*$`,
    String.raw`^[ \t]+\d+\) test .+ \([\w.]+\)[ \t]*$`,
    String.raw`^[ \t]*[✗×✕][ \t]+\S.*$`,
    // a run's summary, which a chained command's later output (a lint, a build) pushes into the middle
    String.raw`^test result: (?:ok|FAILED)\. \d+ passed.*$`,
    String.raw`^[ \t]*Tests?(?: Files)?:?[ \t]+\d+ (?:passed|failed).*$`,
    String.raw`^=+ (?:\d+ (?:passed|failed|errors?)\b.*) =+$`,
    String.raw`^(?:ok|FAIL)[ \t]+\S+[ \t]+(?:\d[\d.]*m?s|\(cached\)|\[build failed\]).*$`,
    String.raw`^# (?:pass|fail|tests) \d+$`,
  ].join('|'),
  'gm',
);

/** Each line kept from the middle is at most this long; together they take at most a quarter of the room. */
const KEPT_LINE_CHARS = 300;

/**
 * The beginning and the end of a long output (runners print their summaries last), and the commit and failing-test
 * lines of the middle (whole lines only), under the cut marker, which counts what is left out.
 */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.4);
  const tail = max - head;
  const inner = text.slice(head, text.length - tail);
  // from the first whole line of the middle, so a line's tail is never read as a line
  const whole = inner.slice(inner.indexOf('\n') + 1);
  let room = Math.floor(max / 4);
  let middle = '';
  for (const line of whole.match(keptLine) ?? []) {
    const kept = `${line.slice(0, KEPT_LINE_CHARS)}\n`;
    if (kept.length > room) break;
    middle += kept;
    room -= kept.length;
  }
  const cut = Math.max(0, text.length - max - middle.length);
  return `${text.slice(0, head)}\n[... ${cut} characters cut ...]\n${middle}${text.slice(-tail)}`;
}

/** How many of a transcript's latest model calls its state names, for other transcripts to find their copies. */
export const RECENT_CALLS_KEPT = 16;

/**
 * What a state carries of the tool calls read: those a later line refers to (a call whose result has not come, one a
 * later line reports on after its result: a background command, a PTY session, a code cell, a sub-agent left running),
 * the latest 50 of each kind, their inputs' strings cut at 2,000 characters; and, in case a line refers to another, the
 * latest 10 calls whatever they are, their strings cut at 200 (paths, commands, ids). Each import of a followed session
 * stores this state: the 200 latest calls with long inputs it carried before made 85 KB of a 1,900-line session's.
 */
const REFERRED_CALLS_KEPT = 50;
const LATEST_CALLS_KEPT = 10;
const REFERRED_INPUT_CHARS = 2000;
const LATEST_INPUT_CHARS = 200;

/** A model call's id as states keep it: its last characters, random enough to tell calls apart. */
export const callKey = (id: string): string => id.slice(-12);

/**
 * Accumulates what the format parsers find. Usage is recorded per model call id: a call written as several lines
 * (one per content block, each repeating a provisional usage) counts once, with the largest values seen. So does a
 * call another transcript of the workflow counted (`countedElsewhere`): a conversation forked with
 * `claude --resume <id> --fork-session` starts with copies of its parent's lines, and a copy is not a second call.
 * Everything a later parse of the same transcript needs (usage so far, open tool calls, the current context, its
 * latest calls) is exported by `state()` and taken back by the constructor, so a transcript can be read in pieces.
 */
export class TranscriptBuilder {
  sessionId: string | null = null;
  model: string | null = null;
  cwd: string | null = null;
  /** The branch the agent's folder had checked out, the latest the transcript says. */
  branch: string | null = null;
  contextWindow: number | null = null;
  costUsd: number | null = null;
  reportedTurns: number | null = null;
  reportedDurationMs: number | null = null;
  /** When set (a final report such as stream-json `result.usage`), replaces the per-call sums. */
  reportedTotals: CallUsage | null = null;
  result: RunResult | null = null;
  lines = 0;
  /** The model of sidechain calls, used when a file holds only sub-agent activity. */
  sideModel: string | null = null;

  private readonly entries: TranscriptEntry[] = [];
  private readonly skipped: SkippedLine[] = [];
  private readonly compactions: Compaction[] = [];
  private readonly calls = new Map<string, CallUsage>();
  /**
   * Of calls whose lines say what the model wrote (`usage`'s `written`): the largest output count recorded and the
   * rough tokens of what was written, to tell a count recorded as the message started from the final one.
   */
  private readonly written = new Map<string, { recorded: number; written: number }>();
  /** An earlier piece's call had its output count estimated (see `outputCount`). */
  private outputEstimatedBefore = false;
  /** The calls first seen in this piece (not the open call carried over), with where they were made. */
  private readonly pieceCalls = new Map<string, { sidechain: boolean; copyable: boolean }>();
  /** Calls read that another transcript of the workflow counted, before this piece or in it (never counted here). */
  private readonly copied = new Set<string>();
  /** The keys (`callKey`) of the latest main-chain calls with an id a copy keeps, oldest first. */
  private recentCalls: string[] = [];
  /** The model call read last, and the tool calls each call of this piece made (a copy's are not counted either). */
  private lastCall: string | null = null;
  private readonly toolsOf = new Map<string, number>();
  private readonly toolCalls = new Map<string, { name: string | null; input: unknown }>();
  /** The tool calls whose result has not come yet, oldest first. */
  private readonly openCalls = new Set<string>();
  /** The tool calls a later line may report on after their result came (`holdCall`), oldest first. */
  private readonly heldCalls = new Set<string>();
  private readonly background = new Map<string, string>();
  /** Calls of earlier pieces, already summed: only the latest call can still grow (its lines may continue). */
  private closedSums: CallUsage = zero();
  private closedCalls = 0;
  private contextTokens: number | null = null;
  private peakContext: number | null = null;
  private sideContextTokens: number | null = null;
  private lastMainCallId: string | null = null;
  private prompts = 0;
  private toolCallCount = 0;
  private first: string | null = null;
  private last: string | null = null;
  private agentTime = new AgentTime();
  private anonymousCalls = 0;
  private compactionCount = 0;

  constructor(
    readonly format: TranscriptFormat,
    private readonly maxTextLength = 4000,
    state?: unknown,
    /** The keys (`callKey`) of calls other transcripts of the workflow counted (see `recentCallsOf`). */
    private readonly countedElsewhere: ReadonlySet<string> = new Set(),
  ) {
    const s = BuilderState.safeParse(state);
    if (state !== undefined && s.success) this.restore(s.data);
  }

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
    // what a command printed, as a reader of it sees it: without the colours its terminal codes asked for
    const text = input.kind === 'tool_result' ? withoutTerminalCodes(input.text) : input.text;
    const cut = !keptWhole(input.kind, input.role) && text.length > this.maxTextLength;
    let tool = input.tool ?? null;
    if (tool && input.kind === 'tool_call') {
      this.toolCallCount += 1;
      if (this.lastCall !== null) this.toolsOf.set(this.lastCall, (this.toolsOf.get(this.lastCall) ?? 0) + 1);
      if (tool.id) {
        this.toolCalls.set(tool.id, { name: tool.name, input: tool.input });
        this.openCalls.add(tool.id);
      }
    }
    if (tool && input.kind === 'tool_result') {
      const call = tool.id ? this.toolCalls.get(tool.id) : undefined;
      if (call) tool = { ...tool, name: tool.name ?? call.name, input: tool.input ?? call.input };
      // a poll's result answers the poll and the command it read
      for (const id of [tool.id, tool.polled_by]) if (id) this.openCalls.delete(id);
    }
    const prompt = input.role === 'user' && input.kind === 'text' && !input.sidechain && !input.queued;
    if (prompt) this.prompts += 1;
    // what is put in the context around a prompt (Codex's environment and settings, written as the next turn begins)
    // is no work of the agent's: it does not stretch the turn before it over the user's time; the user stopping the
    // turn (Codex's interrupt) ends it there
    if (input.at && (input.kind !== 'meta' || isUserInterruption(input)))
      this.agentTime.entry(input.at, prompt);
    const entry: TranscriptEntry = {
      line: input.line,
      // a line without its own time (stream-json's assistant messages) happened at or after the last time stated
      at: input.at ?? this.last,
      role: input.role,
      kind: input.kind,
      text: cut ? cutMiddle(text, this.maxTextLength) : text,
      truncated: cut,
      tool,
      sidechain: input.sidechain ?? false,
      ...(input.queued ? { queued: true } : {}),
      ...(input.commentary ? { commentary: true } : {}),
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

  /** A command the agent left running in the background: later reads of the task report on that call. */
  startedInBackground(taskId: string, callId: string): void {
    this.background.set(taskId, callId);
  }

  /** The tool call that started a background task, if known. */
  backgroundCall(taskId: string): string | undefined {
    return this.background.get(taskId);
  }

  /**
   * A call a later line may report on after its result came (a PTY session or a code cell still running, a sub-agent
   * left running in the background): the next pieces know it by its name and input. A background command's call
   * (`startedInBackground`) is kept without.
   */
  holdCall(id: string): void {
    this.heldCalls.delete(id);
    this.heldCalls.add(id);
  }

  /** A held call no later line reports on any more (its session ended). */
  releaseCall(id: string): void {
    this.heldCalls.delete(id);
  }

  /** The tool call registered under `id`, if any. */
  toolCall(id: string): { name: string | null; input: unknown } | undefined {
    return this.toolCalls.get(id);
  }

  private setContext(tokens: number): void {
    this.contextTokens = tokens;
    if (this.peakContext === null || tokens > this.peakContext) this.peakContext = tokens;
  }

  /**
   * Record the usage of one model call. `id` identifies the call (message id / request id); repeated ids keep the
   * maximum of each count. Main-chain calls update the current context size. `copyable`: the id is the model
   * API's own (Claude Code's message id), which a copy of the line in another file keeps. `written`: the rough
   * tokens of what the line shows the model wrote (its text, thinking and tool inputs), summed over the call's lines:
   * an output count far below it was recorded as the message started, and the call counts what it wrote instead.
   */
  usage(
    id: string | null,
    usage: CallUsage,
    options: { sidechain?: boolean; copyable?: boolean; written?: number } = {},
  ): void {
    const key = id ?? `anonymous-${(this.anonymousCalls += 1)}`;
    const prev = this.calls.get(key);
    this.lastCall = key;
    const copyable = id !== null && (options.copyable ?? false);
    if (!prev) {
      this.pieceCalls.set(key, { sidechain: options.sidechain ?? false, copyable });
      if (copyable && !options.sidechain)
        this.recentCalls = [...this.recentCalls.filter((k) => k !== callKey(key)), callKey(key)].slice(
          -RECENT_CALLS_KEPT,
        );
    }
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
    if (options.written !== undefined) merged.output_tokens = this.outputCount(key, usage, options.written);
    this.calls.set(key, merged);
    // a call that reports no input at all (a stream's placeholder usage `{input_tokens: 0, output_tokens: 0}`) does
    // not say how full the context is: it was not emptied
    if (contextOf(merged) === 0) return;
    if (options.sidechain) {
      this.sideContextTokens = contextOf(merged);
      return;
    }
    this.setContext(contextOf(merged));
    if (this.lastMainCallId !== key) {
      this.lastMainCallId = key;
      const open = this.compactions.at(-1);
      if (open && open.post_tokens === null) open.post_tokens = this.contextTokens;
    }
  }

  /**
   * A call's output tokens: the count its lines recorded, unless that is under a quarter of what they show the model
   * wrote (some Claude Code versions write each line of a message with the count it had when the message started,
   * 1 to 10 tokens, and never the final one): then the rough tokens of what it wrote, an estimate said so.
   */
  private outputCount(key: string, usage: CallUsage, written: number): number {
    const was = this.written.get(key) ?? { recorded: 0, written: 0 };
    const now = { recorded: Math.max(was.recorded, usage.output_tokens), written: was.written + written };
    this.written.set(key, now);
    return provisional(now) ? now.written : now.recorded;
  }

  /**
   * Whether a call's output count is an estimate: one an earlier piece summed, or one this piece counts (`open`
   * false: but the call still open, which the next piece may read the final count of).
   */
  private outputEstimated(open = true): boolean {
    const estimated = ([key]: [string, CallUsage]) => {
      const c = this.written.get(key);
      return c !== undefined && provisional(c) && (open || key !== this.lastMainCallId);
    };
    return this.outputEstimatedBefore || this.own().some(estimated);
  }

  /** Set the current context size directly (formats that report it, e.g. Codex last_token_usage). */
  context(tokens: number): void {
    this.setContext(tokens);
    const open = this.compactions.at(-1);
    if (open && open.post_tokens === null && open.pre_tokens !== tokens) open.post_tokens = tokens;
  }

  compaction(c: Omit<Compaction, 'post_tokens' | 'pre_tokens'> & { pre_tokens: number | null }): void {
    this.seen(c.at);
    this.compactionCount += 1;
    this.compactions.push({ ...c, pre_tokens: c.pre_tokens ?? this.contextTokens, post_tokens: null });
    this.lastMainCallId = null;
  }

  /**
   * The calls of this piece another transcript of the workflow counted: those it names, and, on the main chain,
   * every call before the last of them, since a fork copies its parent's conversation as a whole (the parent's
   * state names only its latest calls). A sub-agent's call matched names itself alone.
   */
  private copies(): Set<string> {
    const out = new Set(this.copied);
    let through = -1;
    const keys = [...this.pieceCalls.keys()];
    keys.forEach((key, i) => {
      const call = this.pieceCalls.get(key);
      if (!call?.copyable || !this.countedElsewhere.has(callKey(key))) return;
      out.add(key);
      if (!call.sidechain) through = i;
    });
    for (const key of keys.slice(0, through + 1)) out.add(key);
    return out;
  }

  /** The calls this transcript counts: every call read, but the copies of calls another transcript counted. */
  private own(): [string, CallUsage][] {
    const copies = this.copies();
    return [...this.calls].filter(([key]) => !copies.has(key));
  }

  /** The tool calls this transcript counts: those of the copies are the other transcript's. */
  private ownToolCalls(): number {
    let copied = 0;
    for (const key of this.copies()) copied += this.toolsOf.get(key) ?? 0;
    return this.toolCallCount - copied;
  }

  private sums(): { sums: CallUsage; count: number } {
    let sums = this.closedSums;
    const own = this.own();
    for (const [, u] of own) sums = add(sums, u);
    return { sums, count: this.closedCalls + own.length };
  }

  build(): ParsedTranscript {
    const summed = this.sums();
    const sums = this.reportedTotals ?? summed.sums;
    const usage: TranscriptUsage = {
      ...sums,
      total_tokens: contextOf(sums) + sums.output_tokens,
      context_tokens: this.contextTokens ?? this.sideContextTokens,
      peak_context_tokens: this.peakContext ?? this.sideContextTokens,
      context_window: this.contextWindow,
      cost_usd: this.costUsd,
      num_turns: this.reportedTurns ?? this.prompts,
      llm_calls: summed.count,
      tool_calls: this.ownToolCalls(),
      duration_ms: this.reportedDurationMs ?? this.agentTime.ms(),
      ...(this.reportedTotals === null && this.outputEstimated() ? { output_estimated: true } : {}),
    };
    return {
      format: this.format,
      session_id: this.sessionId,
      model: this.model ?? this.sideModel,
      cwd: this.cwd,
      started_at: this.first,
      ended_at: this.last,
      // a line before any stated time (a stream's first answer, before its first timed line) is dated by the first
      // time the transcript states, not left to whoever reads it to date by its own clock
      entries: this.entries.map((e) => ({
        ...e,
        at: e.at ?? this.first,
        ...(e.tool ? { tool: { ...e.tool } } : {}),
      })),
      usage,
      compactions: this.compactions.map((c) => ({ ...c })),
      result: this.result,
      skipped: [...this.skipped],
      lines: this.lines,
      state: this.state(),
    };
  }

  /** What a parse of the next lines needs from this one. Only the latest call stays open; older ones are summed. */
  state(): BuilderState {
    const background = [...this.background].slice(-REFERRED_CALLS_KEPT);
    const open = this.lastMainCallId !== null ? this.calls.get(this.lastMainCallId) : undefined;
    const copies = this.copies();
    let closed = this.closedSums;
    let closedCount = this.closedCalls;
    for (const [key, u] of this.calls) {
      if (key === this.lastMainCallId || copies.has(key)) continue;
      closed = add(closed, u);
      closedCount += 1;
    }
    return {
      v: 1,
      session_id: this.sessionId,
      model: this.model,
      side_model: this.sideModel,
      cwd: this.cwd,
      branch: this.branch,
      context_window: this.contextWindow,
      cost_usd: this.costUsd,
      reported_turns: this.reportedTurns,
      reported_duration_ms: this.reportedDurationMs,
      reported_totals: this.reportedTotals,
      closed_sums: closed,
      closed_calls: closedCount,
      open_call:
        open && this.lastMainCallId
          ? {
              id: this.lastMainCallId,
              usage: open,
              ...(copies.has(this.lastMainCallId) ? { copied: true } : {}),
              ...(this.written.has(this.lastMainCallId)
                ? { written: this.written.get(this.lastMainCallId) }
                : {}),
            }
          : null,
      recent_calls: this.recentCalls,
      context_tokens: this.contextTokens,
      peak_context_tokens: this.peakContext,
      side_context_tokens: this.sideContextTokens,
      prompts: this.prompts,
      tool_call_count: this.ownToolCalls(),
      first: this.first,
      last: this.last,
      agent_time: this.agentTime.state(),
      anonymous_calls: this.anonymousCalls,
      compactions: this.compactionCount,
      ...(this.outputEstimated(false) ? { output_estimated: true } : {}),
      ...this.carriedCalls(background),
      background,
    };
  }

  /**
   * The tool calls a later piece may need (`REFERRED_CALLS_KEPT`: those waiting for their result, those held, those
   * that started the `background` commands carried) and the latest few, their inputs slimmed; and which of them wait
   * and which are held, for the next piece to carry them on in turn.
   */
  private carriedCalls(
    background: [string, string][],
  ): Pick<BuilderState, 'tool_calls' | 'open_calls' | 'held_calls'> {
    const known = (ids: Iterable<string>) =>
      [...ids].filter((id) => this.toolCalls.has(id)).slice(-REFERRED_CALLS_KEPT);
    const open = known(this.openCalls);
    const held = known(this.heldCalls);
    const kept = new Map<string, number>();
    for (const id of [...this.toolCalls.keys()].slice(-LATEST_CALLS_KEPT)) kept.set(id, LATEST_INPUT_CHARS);
    for (const id of [...open, ...held, ...background.map(([, call]) => call)])
      kept.set(id, REFERRED_INPUT_CHARS);
    return { tool_calls: slimCalls(this.toolCalls, kept), open_calls: open, held_calls: held };
  }

  private restore(s: BuilderState): void {
    this.sessionId = s.session_id;
    this.model = s.model;
    this.sideModel = s.side_model;
    this.cwd = s.cwd;
    this.branch = s.branch;
    this.contextWindow = s.context_window;
    this.costUsd = s.cost_usd;
    this.reportedTurns = s.reported_turns;
    this.reportedDurationMs = s.reported_duration_ms;
    this.reportedTotals = s.reported_totals;
    this.closedSums = s.closed_sums;
    this.outputEstimatedBefore = s.output_estimated ?? false;
    this.closedCalls = s.closed_calls;
    if (s.open_call) {
      this.calls.set(s.open_call.id, s.open_call.usage);
      this.lastMainCallId = s.open_call.id;
      if (s.open_call.copied) this.copied.add(s.open_call.id);
      if (s.open_call.written) this.written.set(s.open_call.id, s.open_call.written);
    }
    this.recentCalls = s.recent_calls;
    this.contextTokens = s.context_tokens;
    this.peakContext = s.peak_context_tokens;
    this.sideContextTokens = s.side_context_tokens;
    this.prompts = s.prompts;
    this.toolCallCount = s.tool_call_count;
    this.first = s.first;
    this.last = s.last;
    // a state from before the agent's time was kept by turns: its first-to-last span, as it was counted then
    this.agentTime = new AgentTime(s.agent_time ?? { worked_ms: 0, turn_from: s.first, turn_to: s.last });
    this.anonymousCalls = s.anonymous_calls;
    this.compactionCount = s.compactions;
    for (const [id, call] of s.tool_calls) this.toolCalls.set(id, call);
    for (const id of s.open_calls) this.openCalls.add(id);
    for (const id of s.held_calls) this.heldCalls.add(id);
    for (const [task, call] of s.background) this.background.set(task, call);
  }

  /** Compactions before this piece (for numbering and "where it happened" reports). */
  get compactionsSoFar(): number {
    return this.compactionCount;
  }
}
