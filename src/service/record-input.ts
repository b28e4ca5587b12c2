import {
  recordDecision,
  recordError,
  recordFeedback,
  recordHistory,
  recordRequest,
  recordTestRun,
  recordUsage,
  type Decision,
  type Draft,
  type ErrorRecord,
  type HistoryEntry,
  type ReviewerFeedback,
  type TestState,
  type UsageMetrics,
  type UserRequest,
} from '../core/index.js';

/** One record to append: what `baton record <kind>` and the record endpoints take. */
export type RecordInput =
  | { kind: 'decision'; decision: Omit<Decision, 'id' | 'timestamp'> }
  | { kind: 'error'; error: Omit<ErrorRecord, 'id' | 'timestamp'> }
  | { kind: 'history'; text: string; task_id: string | null; source: string | null }
  | { kind: 'test'; test: Omit<TestState, 'last_test_run_at'> }
  | { kind: 'usage'; usage: UsageMetrics }
  | { kind: 'feedback'; feedback: Omit<ReviewerFeedback, 'review_id' | 'timestamp'> }
  /** What the user asked; the same text recorded again writes nothing (the output is then null). */
  | { kind: 'request'; text: string; at?: string | null; source?: string | null };

/** How far a transcript was read, committed with the records it gave (so a re-import adds only what is new). */
export interface ImportMarker {
  format: string;
  transcript_session_id: string;
  path: string | null;
  through_line: number;
}

export type RecordOutput =
  Decision | ErrorRecord | HistoryEntry | TestState | UsageMetrics | ReviewerFeedback | UserRequest | null;

/** Emits the event of one record onto a draft. */
export function recordOne(d: Draft, input: RecordInput): RecordOutput {
  switch (input.kind) {
    case 'decision':
      return recordDecision(d, input.decision);
    case 'error':
      return recordError(d, input.error);
    case 'history':
      return recordHistory(d, input.text, input.task_id, input.source);
    case 'test':
      return recordTestRun(d, input.test);
    case 'usage':
      return recordUsage(d, input.usage);
    case 'feedback':
      return recordFeedback(d, input.feedback);
    case 'request':
      return recordRequest(d, { text: input.text, at: input.at ?? null, source: input.source ?? null });
  }
}
