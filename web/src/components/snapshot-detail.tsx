import { seg, type Snapshot } from '../api/index.js';
import { useApi } from '../hooks/use-api.js';
import { hrefOf } from '../hooks/use-hash-route.js';
import { DecisionList } from './decision-list.js';
import { ErrorList } from './error-list.js';
import { ErrorNote } from './error-note.js';
import { GitStatePanel } from './git-state-panel.js';
import { ReviewerFeedbackList } from './reviewer-feedback-list.js';
import { StatusBadge } from './status-badge.js';
import { TddStatePanel } from './tdd-state-panel.js';
import { UsagePanel } from './usage-panel.js';

/**
 * One SessionSnapshot in full: decisions with their rationale, errors (unresolved first), git state, TDD state,
 * usage with the context-capacity gauge, and reviewer feedback.
 */
export function SnapshotDetail({
  workflowId,
  snapshotId,
  checkpoint,
}: {
  workflowId: string;
  snapshotId: string;
  /** The checkpoint made of this snapshot (its name), when one was. */
  checkpoint?: string | undefined;
}) {
  const path = `/workflows/${seg(workflowId)}/snapshots/${seg(snapshotId)}`;
  const { data: s, error } = useApi<Snapshot>(path);
  return (
    <section className="card snapshot" aria-labelledby="snapshot-title" data-testid="snapshot-detail">
      <div className="card-head">
        <h2 id="snapshot-title">
          Snapshot <code>{snapshotId}</code>
        </h2>
        {s && <StatusBadge status={s.trigger} title="trigger" />}
        {checkpoint && (
          <span className="tag" data-testid="snapshot-detail-checkpoint">
            checkpoint {checkpoint}
          </span>
        )}
        <span className="spacer" />
        <a href={hrefOf.workflow(workflowId)} className="btn btn-small">
          Close
        </a>
      </div>
      {error && <ErrorNote error={error} what="the snapshot" />}
      {s && (
        <>
          <p className="small">
            Session {s.session_number} · {new Date(s.created_at).toLocaleString()} · {s.tasks_completed} done,{' '}
            {s.tasks_remaining} remaining
            {s.next_task_id && <> · next: {s.next_task_id}</>}
          </p>
          {checkpoint && (
            <p className="small" data-testid="snapshot-checkpoint-note">
              Checkpoint <code>{checkpoint}</code> was made of this snapshot:{' '}
              <code>
                baton recover -w {workflowId} --checkpoint {checkpoint}
              </code>{' '}
              goes back to it (its task states, and its commit in the worktree).
            </p>
          )}
          {s.pause_reason && (
            <p className="banner banner-info" data-testid="snapshot-pause-reason">
              {s.trigger === 'pause' ? 'Pause reason' : 'Why'}: {s.pause_reason}
            </p>
          )}
          {s.warnings.map((w) => (
            <p key={w} className="banner banner-warn">
              {w}
            </p>
          ))}
          <div className="grid-2">
            <div>
              <h3>Decisions ({s.decisions_total})</h3>
              <DecisionList
                decisions={s.decisions}
                total={s.decisions_total}
                detailsPath={`${path}/decisions`}
              />
              <h3>Errors ({s.errors_total})</h3>
              <ErrorList errors={s.errors} total={s.errors_total} detailsPath={`${path}/errors`} />
              <h3>Reviewer feedback</h3>
              <ReviewerFeedbackList feedback={s.reviewer_feedback} />
            </div>
            <div>
              <h3>Usage</h3>
              <UsagePanel usage={s.usage} />
              <h3>Git</h3>
              <GitStatePanel git={s.git_state} note={s.git_note} />
              <h3>TDD</h3>
              <TddStatePanel test={s.test_state} />
              {s.recent_history.length > 0 && (
                <>
                  <h3>Recent history</h3>
                  <ul className="plain small">
                    {s.recent_history.map((h, i) => (
                      <li key={i}>{h}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
