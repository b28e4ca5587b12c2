import type { SnapshotSummary } from '../api/index.js';
import { hrefOf } from '../hooks/use-hash-route.js';
import { StatusBadge } from './status-badge.js';
import { TimeAgo } from './time-ago.js';

/** The workflow's snapshots, newest first, each a checkpoint was made of named by it; each opens its detail. */
export function SnapshotList({
  workflowId,
  snapshots,
  selected,
}: {
  workflowId: string;
  snapshots: SnapshotSummary[];
  selected: string | null;
}) {
  const rows = [...snapshots].sort((a, b) => b.through_seq - a.through_seq);
  return (
    <section className="card" aria-labelledby="snapshots-title">
      <h2 id="snapshots-title">Snapshots</h2>
      {rows.length === 0 && <p className="muted">None yet: a pause or a completed task takes one.</p>}
      <ul className="snapshots" data-testid="snapshot-list">
        {rows.map((s) => (
          <li key={s.id} className={s.id === selected ? 'selected' : undefined}>
            <a href={hrefOf.snapshot(workflowId, s.id)} data-snapshot={s.id}>
              <StatusBadge status={s.trigger} />
              <span>session {s.session_number}</span>
              <span className="muted small">
                {s.tasks_completed}/{s.tasks_completed + s.tasks_remaining} done
              </span>
              <span className="spacer" />
              <TimeAgo at={s.created_at} />
              {/* a line of its own: a checkpoint's name is long, and the row narrow */}
              {s.checkpoint && (
                <span className="small snapshot-checkpoint" data-testid="snapshot-checkpoint">
                  checkpoint <code>{s.checkpoint}</code>
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
