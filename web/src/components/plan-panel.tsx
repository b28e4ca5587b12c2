import type { Decision } from '../api/index.js';
import { DecisionList } from './decision-list.js';

/** The plan the workflow was created with, and the decisions recorded so far (with their rationale). */
export function PlanPanel({
  plan,
  decisions,
  total,
  detailsPath,
}: {
  plan: string;
  decisions: Decision[];
  total: number;
  detailsPath: string;
}) {
  return (
    <section className="card" aria-labelledby="plan-title" data-testid="plan-and-decisions">
      <h2 id="plan-title">Plan</h2>
      {plan.trim() ? (
        <pre className="plan" data-testid="plan">
          {plan}
        </pre>
      ) : (
        <p className="muted small">
          No plan was given (<code>baton create --plan FILE</code>).
        </p>
      )}
      <h3>Decisions</h3>
      <DecisionList decisions={[...decisions].reverse()} total={total} detailsPath={detailsPath} />
    </section>
  );
}
