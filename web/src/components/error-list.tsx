import { useState } from 'react';
import { api, type ApiError, type ErrorShown } from '../api/index.js';
import { StatusBadge } from './status-badge.js';

/** What an API failure is in place of its resolution (`api_failure`: the stop of the last turn, or over). */
const apiFailureSaid = { cut_off: 'API failure: cut off the last turn', over: 'API failure: over' } as const;

/**
 * What an error is shown as, for its badge, its `data-resolution` and its order alike: an API failure is that, whatever
 * its record's resolution says (an unresolved one is no open error of the work); any other, its resolution.
 */
const shownState = (e: ErrorShown): string => (e.api_failure ? 'api_failure' : e.resolution);

/**
 * Errors, the unresolved ones first, each with its resolution; the API failing under the agent said for what it is,
 * no error of the work.
 */
export function ErrorList({
  errors,
  total,
  detailsPath,
}: {
  errors: ErrorShown[];
  total: number;
  detailsPath: string;
}) {
  const [all, setAll] = useState<ErrorShown[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (total === 0) return <p className="muted small">No errors recorded.</p>;
  const shown = [...(all ?? errors)]
    .map((e) => ({ e, state: shownState(e) }))
    .sort((a, b) => Number(b.state === 'unresolved') - Number(a.state === 'unresolved'));
  return (
    <>
      <ul className="records" data-testid="errors">
        {shown.map(({ e, state }) => (
          <li key={e.id} data-resolution={state}>
            <div>
              <StatusBadge
                status={state}
                {...(e.api_failure ? { title: apiFailureSaid[e.api_failure] } : {})}
              />{' '}
              <strong>{e.error_type}</strong>: {e.error_message}
              {e.task_id && <span className="muted small"> ({e.task_id})</span>}
            </div>
            {e.api_failure && (
              <div className="muted small">
                {apiFailureSaid[e.api_failure]}: the API failed under the agent, no error of the work
              </div>
            )}
            {e.resolution_notes && <div className="rationale">{e.resolution_notes}</div>}
            {e.context && <div className="muted small">{e.context}</div>}
          </li>
        ))}
      </ul>
      {shown.length < total && (
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            api
              .get<ErrorShown[]>(detailsPath)
              .then(setAll, (e: unknown) => setFailed((e as ApiError).message))
          }
        >
          Show all {total}
        </button>
      )}
      {failed && <p className="error-note">{failed}</p>}
    </>
  );
}
