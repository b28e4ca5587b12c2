import type { Draft } from '../draft.js';
import type { RecordedIn, WorkflowState } from '../schemas/state.js';
import { findError } from '../fold.js';
import { notRunAgain } from '../test-scope.js';
import { BatonError, invalidInput, notFound } from '../errors.js';
import { noSuchTask } from './no-such-task.js';
import type {
  Decision,
  ErrorRecord,
  HistoryEntry,
  ReviewerFeedback,
  Summary,
  TestState,
  CiState,
  UsageMetrics,
} from '../schemas/records.js';

/** Records may name a task; it must exist. */
function checkTask(d: Draft, taskId: string | null) {
  if (taskId !== null && !d.state.tasks.some((t) => t.id === taskId)) {
    throw noSuchTask(d.state, taskId);
  }
}

/**
 * Every record takes an optional `at`: when it happened (a transcript's timestamp), which becomes the record's
 * timestamp; without it the record is stamped with the time it is recorded.
 */
export function recordDecision(
  d: Draft,
  input: Omit<Decision, 'id' | 'timestamp'>,
  at: string | null = null,
): Decision {
  checkTask(d, input.task_id);
  const decision: Decision = { id: d.ctx.newId('dec'), timestamp: at ?? d.ctx.now, ...input };
  d.emit({ type: 'decision.recorded', task_id: input.task_id, data: { decision } });
  return decision;
}

export function recordError(
  d: Draft,
  input: Omit<ErrorRecord, 'id' | 'timestamp'>,
  at: string | null = null,
): ErrorRecord {
  checkTask(d, input.task_id);
  const error: ErrorRecord = { id: d.ctx.newId('err'), timestamp: at ?? d.ctx.now, ...input };
  d.emit({ type: 'error.recorded', task_id: input.task_id, data: { error } });
  return error;
}

/**
 * Resolves an error of the state, or one it no longer holds (an open error older than the state's newest) when the
 * caller passes its record as `stored`; the event then carries that record so the fold needs nothing else.
 */
export function resolveError(
  d: Draft,
  errorId: string,
  resolution: ErrorRecord['resolution'],
  notes: string | null,
  stored: ErrorRecord | null = null,
): ErrorRecord {
  const held = findError(d.state, errorId);
  const err = held ?? (stored?.id === errorId ? stored : undefined);
  if (!err)
    throw notFound(`error ${errorId} is not an error of workflow ${d.state.id}`, {
      error_id: errorId,
    });
  d.emit({
    type: 'error.resolved',
    task_id: err.task_id,
    data: { error_id: errorId, resolution, resolution_notes: notes, ...(held ? {} : { error: err }) },
  });
  return { ...err, resolution, resolution_notes: notes };
}

export function recordHistory(
  d: Draft,
  text: string,
  taskId: string | null,
  source: string | null,
  at: string | null = null,
): HistoryEntry {
  if (!text.trim()) throw invalidInput('a history entry needs text');
  checkTask(d, taskId);
  const entry: HistoryEntry = {
    id: d.ctx.newId('hist'),
    timestamp: at ?? d.ctx.now,
    task_id: taskId,
    session_number: Math.max(1, d.state.session_count),
    text,
    source,
  };
  d.emit({ type: 'history.recorded', task_id: taskId, data: { entry } });
  return entry;
}

export function recordFeedback(
  d: Draft,
  input: Omit<ReviewerFeedback, 'review_id' | 'timestamp'>,
): ReviewerFeedback {
  const feedback: ReviewerFeedback = { review_id: d.ctx.newId('rev'), timestamp: d.ctx.now, ...input };
  d.emit({ type: 'feedback.recorded', data: { feedback } });
  return feedback;
}

export function addressFeedback(d: Draft, reviewId: string): void {
  if (!d.state.open_feedback.some((f) => f.review_id === reviewId)) {
    throw notFound(`reviewer feedback ${reviewId} is not open in workflow ${d.state.id}`, {
      review_id: reviewId,
    });
  }
  d.emit({ type: 'feedback.addressed', data: { review_id: reviewId } });
}

/**
 * How many tests a run left failing: the runner's count, or the names when it printed more of them (a long output
 * whose middle was cut names fewer tests than its summary counts).
 */
export const failingCount = (t: Pick<TestState, 'failing_tests' | 'failed'>): number =>
  Math.max(t.failing_tests.length, t.failed ?? 0);

/**
 * The tests the runs before this one left failing that this one did not run (it named other test files), with the
 * command that failed them; null when there are none.
 */
function leftFailing(
  before: TestState | null,
  run: Pick<TestState, 'failing_tests' | 'last_test_command'>,
): TestState['not_run_again'] {
  if (!before) return null;
  const fresh = notRunAgain(before.failing_tests, run.last_test_command);
  const older = notRunAgain(before.not_run_again?.tests ?? [], run.last_test_command);
  const tests = [...new Set([...older, ...fresh])].filter((t) => !run.failing_tests.includes(t));
  if (!tests.length) return null;
  // the command that failed them last: this run's predecessor when it left any, else the one named before
  const command = fresh.length ? before.last_test_command : (before.not_run_again?.command ?? null);
  return { tests, command };
}

export function recordTestRun(
  d: Draft,
  input: Omit<TestState, 'last_test_run_at' | 'not_run_again'>,
  at: string | null = null,
): TestState {
  // green means every test passes: a run that names failures is not one, whoever records it (CLI, MCP, REST)
  const failing = failingCount(input);
  if (input.phase === 'green' && failing > 0) {
    const shown = input.failing_tests.slice(0, 5).join(', ');
    const names = shown ? ` (${shown}${input.failing_tests.length > 5 ? ', ...' : ''})` : '';
    throw invalidInput(
      `a green test run has no failing tests, yet this one names ${failing}${names}: record it as red while tests fail`,
      { phase: input.phase, failing_tests: input.failing_tests },
    );
  }
  const test_state: TestState = {
    ...input,
    last_test_run_at: at ?? d.ctx.now,
    not_run_again: leftFailing(d.state.test_state, input),
  };
  d.emit({ type: 'test_run.recorded', data: { test_state } });
  return test_state;
}

/** A CI report the agent read: its own fact beside the test runs, which it never changes. */
export function recordCi(d: Draft, input: Omit<CiState, 'at'>, at: string | null = null): CiState {
  const ci: CiState = { ...input, at: at ?? d.ctx.now };
  d.emit({ type: 'ci.reported', data: { ci } });
  return ci;
}

/** One of the agent's own summaries (a compaction summary, its last message, a usage limit), kept whole. */
export function recordSummary(
  d: Draft,
  input: Pick<Summary, 'kind' | 'text' | 'source' | 'turn_ended' | 'said_nothing' | 'resets_at'>,
  at: string | null = null,
): Summary {
  if (!input.text.trim()) throw invalidInput('a summary needs text');
  const summary: Summary = {
    id: d.ctx.newId('sum'),
    timestamp: at ?? d.ctx.now,
    session_number: Math.max(1, d.state.session_count),
    ...input,
  };
  d.emit({ type: 'summary.recorded', data: { summary } });
  return summary;
}

/**
 * A usage reading is its source's totals so far (what agents report), not an increment: the fold sums the
 * difference from the same source's previous reading. The source is one agent run (`exec-...`), one imported
 * transcript (`transcript:<id>`), or by default the Baton session (`session-<n>`).
 */
export function recordUsage(d: Draft, usage: UsageMetrics, source?: string): UsageMetrics {
  d.emit({ type: 'usage.recorded', data: source ? { usage, source } : { usage } });
  return usage;
}

/** Marks how far a transcript has been imported (the records it gave are emitted beside this, in one commit). */
/**
 * A transcript piece read after line `from_line` is still the next one: a piece of the same transcript imported
 * meanwhile past that line (two hooks importing at once) is refused, so nothing is recorded twice.
 */
export function assertImportContinues(
  s: WorkflowState,
  piece: { transcript_session_id: string; path: string | null; from_line?: number },
): void {
  const mark = s.imports[piece.transcript_session_id];
  if (piece.from_line === undefined || !mark || mark.path !== piece.path) return;
  if (mark.through_line > piece.from_line)
    throw new BatonError(
      'conflict',
      `${piece.path ?? 'the transcript'} was imported meanwhile through line ${mark.through_line} (this piece starts after line ${piece.from_line}): import it again to read on from there`,
    );
}

export function markImported(
  d: Draft,
  input: {
    format: string;
    transcript_session_id: string;
    path: string | null;
    through_line: number;
    records: number;
    through_byte?: number;
    parser_state?: unknown;
    recorded_in?: RecordedIn;
    extractor?: string;
    fallback_reason?: string | null;
  },
) {
  if (!input.transcript_session_id) throw invalidInput('an import needs the transcript session id');
  // an agent's session worked on it: under way (as when an agent's hooks follow it)
  if (d.state.status === 'pending' && input.records > 0) d.emit({ type: 'workflow.started', data: {} });
  d.emit({ type: 'transcript.imported', data: input });
}
