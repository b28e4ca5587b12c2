import { useLiveEvents } from '../live/index.js';

const describe = (
  type: string,
  task: string | null | undefined,
  data: Record<string, unknown> | undefined,
) => {
  const parts = [type];
  if (task) parts.push(task);
  const reason = data?.['reason'];
  if (typeof reason === 'string' && reason) parts.push(`"${reason}"`);
  return parts.join(' · ');
};

/** The workflow's live events as they arrive (since the dashboard opened). */
export function ActivityFeed({ workflowId }: { workflowId: string }) {
  const events = useLiveEvents(workflowId);
  return (
    <section className="card" aria-labelledby="activity-title">
      <h2 id="activity-title">Live activity</h2>
      {events.length === 0 && (
        <p className="muted small">Events appear here as they happen (CLI, agents, API).</p>
      )}
      <ul className="activity" data-testid="activity">
        {events.map((e) => (
          <li key={`${e.position ?? ''}-${e.type}`} data-type={e.type}>
            <code>{describe(e.type, e.task_id, e.data)}</code>
            {e.session_number ? <span className="muted small"> session {e.session_number}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
