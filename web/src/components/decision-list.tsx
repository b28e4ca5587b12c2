import { useState } from 'react';
import { api, ApiError, type Decision } from '../api/index.js';

/** Decisions with their rationale and the alternatives considered; "show all" fetches the rest. */
export function DecisionList({
  decisions,
  total,
  detailsPath,
}: {
  decisions: Decision[];
  total: number;
  detailsPath: string;
}) {
  const [all, setAll] = useState<Decision[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const shown = all ?? decisions;
  if (total === 0) return <p className="muted small">No decisions recorded.</p>;
  return (
    <>
      <ul className="records" data-testid="decisions">
        {shown.map((d) => (
          <li key={d.id}>
            <div>
              <span className="tag">{d.decision_type}</span> {d.description}
              {d.task_id && <span className="muted small"> ({d.task_id})</span>}
            </div>
            {d.rationale && <div className="rationale">Why: {d.rationale}</div>}
            {d.alternatives_considered?.length ? (
              <div className="muted small">Considered: {d.alternatives_considered.join('; ')}</div>
            ) : null}
          </li>
        ))}
      </ul>
      {shown.length < total && (
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            api.get<Decision[]>(detailsPath).then(setAll, (e: unknown) => setFailed((e as ApiError).message))
          }
        >
          Show all {total}
        </button>
      )}
      {failed && <p className="error-note">{failed}</p>}
    </>
  );
}
