import { useState } from 'react';
import { api, type ApiError, type ErrorRecord } from '../api/index.js';
import { StatusBadge } from './status-badge.js';

/** Errors, the unresolved ones first, each with its resolution. */
export function ErrorList({
  errors,
  total,
  detailsPath,
}: {
  errors: ErrorRecord[];
  total: number;
  detailsPath: string;
}) {
  const [all, setAll] = useState<ErrorRecord[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (total === 0) return <p className="muted small">No errors recorded.</p>;
  const shown = [...(all ?? errors)].sort(
    (a, b) => Number(b.resolution === 'unresolved') - Number(a.resolution === 'unresolved'),
  );
  return (
    <>
      <ul className="records" data-testid="errors">
        {shown.map((e) => (
          <li key={e.id} data-resolution={e.resolution}>
            <div>
              <StatusBadge status={e.resolution} /> <strong>{e.error_type}</strong>: {e.error_message}
              {e.task_id && <span className="muted small"> ({e.task_id})</span>}
            </div>
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
              .get<ErrorRecord[]>(detailsPath)
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
