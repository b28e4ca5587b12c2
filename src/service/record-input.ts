import {
  capacityVerdict,
  detectUsageLimit,
  measureCapacity,
  recordDecision,
  warnCapacity,
  type CapacityPolicy,
  recordError,
  recordFeedback,
  recordHistory,
  recordSideEffect,
  recordSummary,
  recordRequest,
  recordTestRun,
  recordCi,
  recordUsage,
  resolveError,
  sameLimit,
  type Decision,
  type RecordedIn,
  type Draft,
  type ErrorRecord,
  type HistoryEntry,
  type ReviewerFeedback,
  type SideEffectKind,
  type Summary,
  type TestState,
  type CiState,
  type UsageMetrics,
  type UserRequest,
} from '../core/index.js';

/**
 * One record to append: what `baton record <kind>` and the record endpoints take, and what a transcript import
 * writes. `at` (optional) is when it happened, e.g. the transcript's timestamp; without it, the time of recording.
 */
export type RecordInput =
  | { kind: 'decision'; decision: Omit<Decision, 'id' | 'timestamp'>; at?: string | null }
  | { kind: 'error'; error: Omit<ErrorRecord, 'id' | 'timestamp'>; at?: string | null }
  | { kind: 'history'; text: string; task_id: string | null; source: string | null; at?: string | null }
  | { kind: 'test'; test: Omit<TestState, 'last_test_run_at'>; at?: string | null }
  /** A CI report the agent read: its own fact beside the test runs (`ci_state`), never one of them. */
  | { kind: 'ci'; ci: Omit<CiState, 'at'>; at?: string | null }
  | { kind: 'usage'; usage: UsageMetrics; source?: string }
  | { kind: 'feedback'; feedback: Omit<ReviewerFeedback, 'review_id' | 'timestamp'> }
  | {
      kind: 'side_effect';
      effect: { task_id: string | null; kind: SideEffectKind; tool: string; summary: string };
      at?: string | null;
    }
  | {
      kind: 'summary';
      summary: Pick<Summary, 'kind' | 'text' | 'source' | 'turn_ended' | 'said_nothing' | 'resets_at'>;
      at?: string | null;
    }
  | {
      kind: 'resolution';
      error_id: string;
      resolution: ErrorRecord['resolution'];
      notes: string | null;
    }
  /** What the user asked; the same text recorded again writes nothing (the output is then null). */
  | { kind: 'request'; text: string; at?: string | null; source?: string | null; agent_said?: string | null };

/** How far a transcript was read, committed with the records it gave (so a re-import adds only what is new). */
export interface ImportMarker {
  format: string;
  transcript_session_id: string;
  path: string | null;
  through_line: number;
  /**
   * The line this piece continues from (the mark it was read after). A piece whose transcript was imported past it
   * meanwhile (two hooks importing at once) is refused with a conflict, so nothing is recorded twice.
   */
  from_line?: number;
  /** Bytes read: the next import reads on from this offset. */
  through_byte?: number;
  /** The parser's carry-over for the next import. */
  parser_state?: unknown;
  /** Where the transcript says its agent worked: its folder and branch. */
  recorded_in?: RecordedIn;
  /** Which extractor produced the decisions and errors, and why a fallback happened. */
  extractor?: string;
  fallback_reason?: string | null;
}

/**
 * One of the agent's own summaries as read from what it wrote (src/agents/agent-summaries.ts), as a record: what a
 * transcript import and `baton run` (its agent's output, or the task log of a run lost in a crash) both record. A
 * usage limit's reset is read from its notice: a clock time without a date is the next one after the notice, in
 * `zone` (where the agent printed it).
 */
export function agentSummaryInput(
  s: Pick<Summary, 'kind' | 'text' | 'turn_ended' | 'said_nothing'> & { at: string | null },
  source: string,
  zone: string | (() => string),
): Extract<RecordInput, { kind: 'summary' }> {
  const ended = s.turn_ended === undefined ? {} : { turn_ended: s.turn_ended };
  const silent = s.said_nothing ? { said_nothing: true } : {};
  const resets =
    s.kind === 'usage_limit'
      ? { resets_at: detectUsageLimit(s.text, s.at ? new Date(s.at) : new Date(), zone)?.resets_at ?? null }
      : {};
  return {
    kind: 'summary',
    at: s.at,
    summary: { kind: s.kind, text: s.text, source, ...ended, ...silent, ...resets },
  };
}

export type RecordOutput =
  | Decision
  | ErrorRecord
  | HistoryEntry
  | TestState
  | CiState
  | UsageMetrics
  | ReviewerFeedback
  | UserRequest
  | Summary
  | string
  | null;

/**
 * Emits the event of one record onto a draft. A usage reading is checked against the capacity policy when one is
 * given: past its warning threshold, core writes the session's one `capacity.warned`. A resolution of an error the
 * state no longer holds is decided on its record, from `stored`.
 */
export function recordOne(
  d: Draft,
  input: RecordInput,
  capacity?: CapacityPolicy,
  stored: ReadonlyMap<string, ErrorRecord> = new Map(),
): RecordOutput {
  switch (input.kind) {
    case 'decision':
      return recordDecision(d, input.decision, input.at ?? null);
    case 'error':
      return recordError(d, input.error, input.at ?? null);
    case 'history':
      return recordHistory(d, input.text, input.task_id, input.source, input.at ?? null);
    case 'test':
      return recordTestRun(d, input.test, input.at ?? null);
    case 'ci':
      return recordCi(d, input.ci, input.at ?? null);
    case 'usage': {
      const out = recordUsage(d, input.usage, input.source);
      const u = d.state.usage;
      const m =
        capacity && u.context_window && u.context_tokens !== null && u.context_tokens !== undefined
          ? measureCapacity(
              { context_tokens: u.context_tokens, context_window: u.context_window, cost_usd: null },
              u.context_window,
            )
          : null;
      if (capacity && m && capacityVerdict(m, capacity) !== 'ok') warnCapacity(d, m, capacity.warnAt);
      return out;
    }
    case 'feedback':
      return recordFeedback(d, input.feedback);
    case 'side_effect':
      return recordSideEffect(d, input.effect, input.at ?? null);
    case 'summary': {
      // the agent's last message as it already stands (a hook's copy, then the transcript's) writes nothing, unless
      // a compaction summary or a request of the user came after it: the same words said again ("Done.") are then
      // the newer state; or unless only this copy says the turn ended on it (the turn's end is then recorded). The
      // transcript's copy may say more than the hook's (what the turn left running, the sub-agents it waits for):
      // the hook's words alone then are the same message, and kept with what the transcript added
      const { last_message: last, compaction } = d.state.summaries ?? {
        last_message: null,
        compaction: null,
      };
      const asked = d.state.recent_requests?.at(-1);
      const newer = (t: string | undefined | null) =>
        !!last && !!t && Date.parse(t) > Date.parse(last.timestamp);
      const words = input.summary.text.trim();
      const same = !!last && (last.text.trim() === words || last.text.trim().startsWith(`${words}\n\n`));
      if (
        input.summary.kind === 'last_message' &&
        last &&
        same &&
        !newer(compaction?.timestamp) &&
        !newer(asked?.at ?? asked?.timestamp)
      ) {
        if (!(input.summary.turn_ended === true && last.turn_ended !== true)) return null;
        return recordSummary(d, { ...input.summary, text: last.text }, input.at ?? null);
      }
      // a compaction summary already kept (PostCompact's compact_summary, then the transcript's line that wraps it in
      // "This session is being continued ...") is the same compaction, unless the agent spoke since (a last message
      // of the same millisecond, as `baton run` records both at a session's end, came after it)
      const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
      if (
        input.summary.kind === 'compaction' &&
        compaction &&
        (flat(input.summary.text).includes(flat(compaction.text)) ||
          flat(compaction.text).includes(flat(input.summary.text))) &&
        !(last && Date.parse(last.timestamp) >= Date.parse(compaction.timestamp))
      )
        return null;
      // a usage limit already recorded (the hook's copy, then the transcript's), the agent silent since, is the same one
      if (
        input.summary.kind === 'usage_limit' &&
        sameLimit(d.state.summaries, input.summary.text, d.state.recent_requests?.at(-1))
      )
        return null;
      return recordSummary(d, input.summary, input.at ?? null);
    }
    case 'resolution':
      return resolveError(
        d,
        input.error_id,
        input.resolution,
        input.notes,
        stored.get(input.error_id) ?? null,
      );
    case 'request':
      return recordRequest(d, {
        text: input.text,
        at: input.at ?? null,
        source: input.source ?? null,
        ...(input.agent_said !== undefined ? { agent_said: input.agent_said } : {}),
      });
  }
}
