import type { Snapshot } from '../api/index.js';

/** Reviewer feedback, the unaddressed first. */
export function ReviewerFeedbackList({ feedback }: { feedback: Snapshot['reviewer_feedback'] }) {
  if (!feedback?.length) return <p className="muted small">No reviewer feedback.</p>;
  const rows = [...feedback].sort((a, b) => Number(a.addressed) - Number(b.addressed));
  return (
    <ul className="records" data-testid="reviewer-feedback">
      {rows.map((f) => (
        <li key={f.review_id}>
          <div>
            <strong>{f.reviewer_persona}</strong> <span className="tag">{f.severity}</span>{' '}
            <span className={`tag ${f.approved ? 'tag-ok' : 'tag-warn'}`}>
              {f.approved ? 'approved' : 'changes'}
            </span>{' '}
            {f.addressed ? <span className="muted small">addressed</span> : <span className="tag">open</span>}
          </div>
          <ul className="plain small">
            {f.comments.map((c, i) => (
              <li key={i}>{c}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
