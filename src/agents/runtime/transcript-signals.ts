import type { AgentSignal, AgentStreamParser } from '../../service/runtime/runtime-ports.js';
import { agentSummaries, type Judge } from '../agent-summaries.js';
import type { ParsedTranscript, TranscriptEntry } from '../transcript-types.js';

/** A note of how the output was read: its words, and what it tells (the same for every run it holds for). */
export interface ParserNote {
  about: string;
  text: string;
}

/** A transcript parser fed live output (Claude stream-json, Codex exec --json / rollout). */
export interface IncrementalTranscriptParser {
  push(chunk: string): void;
  end(): ParsedTranscript;
  snapshot(): ParsedTranscript;
  /** What the run's log should say once the output has ended (a figure the parser could not read), if anything. */
  notes?(): ParserNote[];
}

/**
 * How a run's output is read. `fromStart`: no word of the agent's was recorded before it (runtime-ports.ts `parser`).
 * `failed`: how the error extraction judges a result (`Judge`), so the last calls a run's summary names are said
 * failed or worked as the briefing's errors say them, not "returned" (a Codex code-mode cell carries no exit code).
 */
export interface SignalOptions {
  fromStart?: boolean;
  failed?: Judge;
}

/**
 * Turns a transcript parser's growing result into runtime signals: new entries become messages, tool calls and
 * results, errors; the session id, usage (context size, window, cost) and the final result are reported as they
 * change. Once the output has ended, the agent's summaries are read from the whole of it, as a hook reads a
 * transcript: its last message (with the calls that never returned), compaction summaries, the usage limit it
 * stopped on. One parser per format lives in src/agents; this only diffs their output.
 */
export class TranscriptSignals implements AgentStreamParser {
  private seen = 0;
  private compactions = 0;
  private session: string | null = null;
  private usageKey = '';
  /** The context size the last usage signal said. */
  private context: number | null = null;
  private resulted = false;

  constructor(
    private readonly parser: IncrementalTranscriptParser,
    private readonly opts: SignalOptions = {},
  ) {}

  push(chunk: string): AgentSignal[] {
    this.parser.push(chunk);
    return this.diff(this.parser.snapshot(), false);
  }

  end(): AgentSignal[] {
    const t = this.parser.end();
    const last = this.diff(t, true);
    // a headless run's one turn ends on its result line (stream-json's `result`, Codex's `turn.completed` or
    // `turn.failed`): output that stops before it was cut off in the middle of that turn (the agent died or was
    // killed), even where its last words read as a turn's end
    const cut = t.result === null;
    const summaries = agentSummaries(t.entries, this.opts).map(
      ({ at, kind, text, turn_ended, said_nothing }): AgentSignal => ({
        type: 'summary',
        at,
        kind,
        text,
        ...(kind === 'last_message' && cut
          ? { turn_ended: false }
          : turn_ended === undefined
            ? {}
            : { turn_ended }),
        ...(said_nothing ? { said_nothing } : {}),
      }),
    );
    const notes = (this.parser.notes?.() ?? []).map((n) => ({ type: 'note' as const, ...n }));
    return [...last, ...summaries, ...notes];
  }

  /** A usage signal, unless the same figures were the last said. */
  private usage(out: AgentSignal[], u: ParsedTranscript['usage']): void {
    const key = `${u.context_tokens}/${u.context_window}/${u.cost_usd}/${u.total_tokens}`;
    if (key === this.usageKey) return;
    this.usageKey = key;
    this.context = u.context_tokens;
    out.push({
      type: 'usage',
      context_tokens: u.context_tokens,
      context_window: u.context_window,
      cost_usd: u.cost_usd,
      total_tokens: u.total_tokens,
      output_tokens: u.output_tokens,
      llm_calls: u.llm_calls,
      tool_calls: u.tool_calls,
    });
  }

  private diff(t: ParsedTranscript, final: boolean): AgentSignal[] {
    const out: AgentSignal[] = [];
    if (t.session_id && t.session_id !== this.session) {
      this.session = t.session_id;
      out.push({ type: 'session', id: t.session_id });
    }
    for (const e of t.entries.slice(this.seen)) {
      const s = entrySignal(e);
      if (s) out.push(s);
    }
    this.seen = t.entries.length;
    const u = t.usage;
    const reports = u.total_tokens > 0 || u.cost_usd !== null;
    for (const c of t.compactions.slice(this.compactions)) {
      // The context just before a compaction is the highest of the run, the one a capacity warning is read from;
      // lines that reach us in one piece (a pipe's chunk) show only the reading after it, so the compaction's own
      // figure stands for the reading not seen.
      if (reports && c.pre_tokens !== null && c.pre_tokens !== this.context)
        this.usage(out, { ...u, context_tokens: c.pre_tokens });
      out.push({ type: 'compaction', pre_tokens: c.pre_tokens });
    }
    this.compactions = t.compactions.length;
    if (reports) this.usage(out, u);
    if (t.result && (!this.resulted || final)) {
      if (!this.resulted)
        out.push({
          type: 'result',
          is_error: t.result.is_error,
          subtype: t.result.subtype,
          text: t.result.text,
        });
      this.resulted = true;
    }
    return out;
  }
}

function entrySignal(e: TranscriptEntry): AgentSignal | null {
  if (e.sidechain) return null;
  if (e.kind === 'tool_call' && e.tool)
    return { type: 'tool_call', id: e.tool.id, name: e.tool.name ?? 'tool', input: e.tool.input };
  if (e.kind === 'tool_result' && e.tool)
    return {
      type: 'tool_result',
      id: e.tool.id,
      name: e.tool.name ?? 'tool',
      input: e.tool.input,
      is_error: e.tool.is_error ?? (e.tool.exit_code !== null ? e.tool.exit_code !== 0 : null),
      text: e.text,
      ...(e.tool.commands_apart === true ? { commands_apart: true } : {}),
    };
  if (e.kind === 'text' && e.role === 'assistant') return { type: 'message', text: e.text };
  if (e.kind === 'error') return { type: 'error', text: e.text };
  return null;
}
