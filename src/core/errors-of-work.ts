import { listTotals } from './fold/bounds.js';
import type { ErrorRecord, Summary, UserRequest } from './schemas/records.js';
import type { SessionSnapshot } from './schemas/snapshot.js';
import type { WorkflowState } from './schemas/state.js';
import { apiFailureStanding, type ApiFailureStanding } from './turn-stop.js';

/**
 * An error as shown to a person or an agent: its record as it was written, and, when it is the API failing under the
 * agent, what that is now (`api_failure`: the stop of the last turn, or over), so that no reader takes it for an open
 * error of the work or tests the words again.
 */
export type ErrorShown = ErrorRecord & { api_failure?: ApiFailureStanding };

/** What the standing of an API failure is read against: the latest summaries and the user's latest request. */
export interface StandingAgainst {
  summaries?: { compaction: Summary | null; last_message: Summary | null; api_error?: Summary | null } | null;
  asked?: Pick<UserRequest, 'at' | 'timestamp'> | undefined;
}

/** The errors with each API failure among them named for what it is (`apiFailureStanding`), the others as they are. */
export function errorsShown(errors: readonly ErrorRecord[], by: StandingAgainst): ErrorShown[] {
  return errors.map((e) => {
    const standing = apiFailureStanding(e, by.summaries ?? undefined, by.asked);
    return standing ? { ...e, api_failure: standing } : e;
  });
}

/** The unresolved errors of the work among `errors`: the API failures among them are none (`apiFailureStanding`). */
export const unresolvedOfWork = (errors: readonly ErrorRecord[], by: StandingAgainst): ErrorShown[] =>
  errorsShown(errors, by).filter((e) => e.resolution === 'unresolved' && !e.api_failure);

/** A snapshot as shown to a person or an agent: its errors with each API failure named as of the snapshot. */
export type SnapshotShown = Omit<SessionSnapshot, 'errors'> & { errors: ErrorShown[] };

/**
 * A snapshot with its errors shown (`errorsShown`), read against its own summaries and latest request, as `baton
 * details errors` reads them: the same `api_failure` wherever a snapshot's errors are listed.
 */
export const snapshotShown = (s: SessionSnapshot): SnapshotShown => ({
  ...s,
  errors: errorsShown(s.errors, { summaries: s.summaries, asked: s.requests.at(-1) }),
});

/** What a workflow's state says its API failures are read against. */
export const standingOfState = (
  s: Pick<WorkflowState, 'summaries' | 'recent_requests'>,
): StandingAgainst => ({
  summaries: s.summaries ?? null,
  asked: (s.recent_requests ?? []).at(-1),
});

/**
 * A workflow's open errors as its status shows them: the newest the state keeps, API failures named, and their counts
 * (`open_errors`, of the records; `open_api_failures`, how many of those are API failures).
 */
export function openErrorsOfState(s: WorkflowState): {
  counts: { open_errors: number; open_api_failures: number };
  open_errors: ErrorShown[];
} {
  const open = errorsShown(s.open_errors, standingOfState(s));
  return {
    counts: {
      open_errors: listTotals(s).open_errors,
      open_api_failures: open.filter((e) => e.api_failure).length,
    },
    open_errors: open,
  };
}

/**
 * The open errors that hold a workflow's work (`finishedWork`): its open errors but the API failures among them that
 * are over (`apiFailureStanding`: the agent went on, or the user asked again), and how many in all (the state lists
 * only the newest; those it no longer lists count as they are). One that cut off the last turn still holds it: that
 * turn died, and the next session is to know.
 */
export function errorsHoldingWork(s: WorkflowState): { n: number; errors: ErrorShown[] } {
  const open = errorsShown(s.open_errors, standingOfState(s));
  const errors = open.filter((e) => e.api_failure !== 'over');
  return { n: Math.max(0, listTotals(s).open_errors - (open.length - errors.length)), errors };
}

/** What a status-like view holds of the open errors: their count, how many are API failures, the newest shown. */
export interface OpenErrorsView<E> {
  counts: { open_errors?: number | undefined; open_api_failures?: number | undefined };
  open_errors: readonly (E & { api_failure?: string | undefined })[];
}

/**
 * The open errors of the work: the open errors but the API failures among them (`api_failure`, which the status sets
 * by the one rule), how many and the newest, for every line that counts or names open errors.
 */
export function openErrorsOfWork<E>(v: OpenErrorsView<E>): { n: number; newest: E[] } {
  const newest = v.open_errors.filter((e) => !e.api_failure);
  const total = v.counts.open_errors ?? v.open_errors.length;
  return { n: Math.max(0, total - (v.counts.open_api_failures ?? 0)), newest };
}
