import type { SessionTimeline as Timeline } from '../api/index.js';
import { hrefOf } from '../hooks/use-hash-route.js';
import { StatusBadge } from './status-badge.js';
import { TimeAgo } from './time-ago.js';

/** A trigger (`exhaustion`, `task_complete`) fits a badge; a sentence ("codex session 019b... ended") does not. */
const isTrigger = (reason: string) => /^[a-z_]+$/i.test(reason);

/**
 * Amelia's SessionTimeline: one card per session, with the trigger that ended it (or the reason, in words, on its own
 * line) and its tasks done/total.
 */
export function SessionTimeline({ timeline }: { timeline: Timeline }) {
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Session timeline</h2>
      <ol className="timeline" data-testid="session-timeline">
        {timeline.sessions.map((s) => (
          <li key={s.session_number} className="timeline-item" data-session={s.session_number}>
            <span className={`timeline-dot dot-${s.state}`} aria-hidden="true" />
            <div className="timeline-card">
              <div className="row">
                <strong>Session {s.session_number}</strong>
                <span className="muted small">
                  {s.origin === 'create' ? 'started' : s.origin === 'resume' ? 'resumed' : 'recovered'}{' '}
                  <TimeAgo at={s.started_at} />
                </span>
                <span className="spacer" />
                {s.end_reason && isTrigger(s.end_reason) ? (
                  <StatusBadge status={s.end_reason} title="trigger: why the session ended" />
                ) : (
                  <StatusBadge status={s.state} title="session state" />
                )}
              </div>
              {s.end_reason && !isTrigger(s.end_reason) && (
                <div className="small muted timeline-reason" title="why the session ended">
                  {s.end_reason}
                </div>
              )}
              <div className="small">
                <span className="done-count">{s.tasks_done} done</span> / {s.tasks_total} tasks
                {s.snapshot_id && (
                  <>
                    {' · '}
                    <a href={hrefOf.snapshot(s.workflow_id, s.snapshot_id)}>snapshot</a>
                  </>
                )}
                {s.ended_at && (
                  <span className="muted">
                    {' · ended '}
                    <TimeAgo at={s.ended_at} />
                  </span>
                )}
              </div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
