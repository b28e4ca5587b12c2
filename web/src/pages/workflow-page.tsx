import { useCallback, useEffect, useState } from 'react';
import {
  isResumable,
  pendingPauseWords,
  seg,
  takersText,
  teammateGoesOn,
  teammateOf,
  type SessionStatus,
  type SessionTimeline as Timeline,
  type Status,
  type Workflow,
} from '../api/index.js';
import { ActivityFeed } from '../components/activity-feed.js';
import { AgentWatchBanners } from '../components/agent-watch-banners.js';
import { AgentOutput } from '../components/agent-output.js';
import { EventHistory } from '../components/event-history.js';
import { PlanPanel } from '../components/plan-panel.js';
import { ErrorNote } from '../components/error-note.js';
import { ResumeContextPanel } from '../components/resume-context-panel.js';
import { SessionStatusPanel } from '../components/session-status-panel.js';
import { SessionTimeline } from '../components/session-timeline.js';
import { SnapshotDetail } from '../components/snapshot-detail.js';
import { SnapshotList } from '../components/snapshot-list.js';
import { Spinner } from '../components/spinner.js';
import { StatusBadge } from '../components/status-badge.js';
import { TaskList } from '../components/task-list.js';
import { WorkflowUsage } from '../components/workflow-usage.js';
import { WorkflowActions } from '../components/workflow-actions.js';
import { WorkStatePanel } from '../components/work-state-panel.js';
import { useApi } from '../hooks/use-api.js';
import { hrefOf } from '../hooks/use-hash-route.js';
import { useWorkflowCommands } from '../hooks/use-workflow-commands.js';
import { useLiveTick } from '../live/index.js';
import { Words } from '../components/words.js';

/** How often the page asks again whether anything can take queued work that waits. */
const QUEUE_POLL_MS = 3_000;
/** How often the page asks again whether the agent said to run still does: a crash or a kill writes no event. */
const LIVENESS_POLL_MS = 5_000;

/** Queued for the workers: a worker runs it, one that can take it is running, or nothing can, and what would. */
function QueueBanner({ queue }: { queue: NonNullable<Status['queue']> }) {
  if (!queue.stuck)
    return (
      <div className="banner banner-info" role="status" data-testid="queue" data-queue={queue.state}>
        {queue.state === 'running'
          ? `Queued for the workers (priority ${queue.priority}): a worker runs it.`
          : `Queued for the workers (priority ${queue.priority}): waiting for ${takersText(queue.takers)}.`}
      </div>
    );
  return (
    <div className="banner banner-warn" role="status" data-testid="queue" data-queue="stuck">
      {/* one flex item: the words and the commands flow as one sentence */}
      <span>
        Queued for the workers, and nothing can take it: <Words text={queue.stuck.reason} />. Start a worker
        that would: <code>{queue.stuck.command}</code> (or <code>baton serve --worker</code> with the same
        flag).
      </span>
    </div>
  );
}

/** `#/workflows/{id}[/snapshots/{sid}]`: one workflow, live. */
export function WorkflowPage({ id, snapshotId }: { id: string; snapshotId: string | null }) {
  const live = useLiveTick(id);
  const [manual, setManual] = useState(0);
  const [beat, setBeat] = useState(0);
  const refresh = `${live}/${manual}`;
  // what says whether the agent runs is asked again on the liveness beat too; the rest only when something happened
  const alive = `${refresh}/${beat}`;
  const base = `/workflows/${seg(id)}`;
  const status = useApi<Status>(`${base}/status`, alive);
  const session = useApi<SessionStatus>(`${base}/session-status`, alive);
  const timeline = useApi<Timeline>(`${base}/sessions`, alive);
  const view = useApi<{ workflow: Workflow }>(base, refresh);
  const reload = useCallback(() => setManual((n) => n + 1), []);
  // another person's workflow on a database a team shares: named theirs, going on in their agent's sessions; its
  // pause, resume and abandon are asked first (the server refuses them unless meant)
  const teammate = status.data ? teammateOf(status.data.workflow, status.data.you) : null;
  const commands = useWorkflowCommands(id, reload, teammate);
  // Workers starting and stopping write no event of this workflow: while its queued work waits, the page asks again.
  const waiting = status.data?.queue?.state === 'waiting';
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(reload, QUEUE_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);
  // An agent killed or crashed in the middle of its turn writes no event: while one is said to run, the page asks
  // again whether it does, so its death shows (the banner, the session panel, the timeline) without a reload.
  const agentRuns = session.data?.is_agent_running === true;
  useEffect(() => {
    if (!agentRuns) return;
    const timer = setInterval(() => setBeat((n) => n + 1), LIVENESS_POLL_MS);
    return () => clearInterval(timer);
  }, [agentRuns]);

  if (status.error && !status.data) {
    return (
      <>
        <ErrorNote error={status.error} what={`workflow ${id}`} />
        <p>
          <a href={hrefOf.workflows()}>Back to the workflows</a>
        </p>
      </>
    );
  }
  const s = status.data;
  if (!s) return <Spinner label="loading the workflow" />;
  const w = s.workflow;
  // The session-resumption design: while the agent's executor starts, the workspace panels are disabled.
  const starting = session.data?.executor_status === 'starting';
  const latest = s.snapshots[s.snapshots.length - 1];
  const decisionCount = Number(
    (s.counts as Record<string, unknown>)['decisions'] ?? s.recent_decisions.length,
  );

  return (
    <div className="workflow" data-workflow={w.id} data-status={w.status}>
      <section className="card workflow-head">
        <div className="card-head">
          <div>
            <p className="muted small">
              <a href={hrefOf.workflows()}>Workflows</a> / <code>{w.id}</code>
            </p>
            <h1>
              {w.title} <StatusBadge status={w.status} />
            </h1>
            <p className="muted small">
              <code>{w.worktree}</code> · {w.session_count} session{w.session_count === 1 ? '' : 's'}
            </p>
            {teammate && (
              <p className="small" data-testid="teammate">
                <span className="tag">{teammate.owner}&apos;s</span> Not yours: {teammateGoesOn(teammate)}.
              </p>
            )}
            {s.driver && (
              <p className="small" data-testid="driver">
                Driven by <code>{s.driver.command}</code> (pid {s.driver.pid} on {s.driver.host}
                {s.driver.liveness === 'dead' ? ', gone' : ''})
              </p>
            )}
          </div>
          <span className="spacer" />
          <WorkflowActions
            status={s}
            commands={commands}
            hooked={s.following_agent !== null}
            teammate={teammate}
          />
        </div>
        {w.pause_requested && w.status !== 'paused' && (
          <div className="banner banner-info" role="status" data-testid="pause-requested">
            <span>
              Pause requested{w.pause_request?.reason ? ` ("${w.pause_request.reason}")` : ''}:{' '}
              {pendingPauseWords(s.pause_waits_for)}.
            </span>
          </div>
        )}
        {w.status === 'paused' && (
          <div className="banner banner-info" role="status" data-testid="paused-banner">
            Paused{w.pause_reason ? `: ${w.pause_reason}` : ''}.
          </div>
        )}
        {w.status === 'interrupted' && (
          <div className="banner banner-warn" role="status">
            {/* one span: the banner is a flex row, and each bare text and link would be a column of its own */}
            <span>
              Interrupted{w.interrupt_reason ? `: ${w.interrupt_reason}` : ''}. The next session goes on from
              the latest snapshot: <code>baton run -w {w.id}</code>, or{' '}
              {teammate ? `${teammate.owner}'s` : 'your'} agent started in <code>{w.worktree}</code>; or{' '}
              <a href={hrefOf.recover(w.id)}>see the recovery options</a>.
            </span>
          </div>
        )}
        {s.queue && <QueueBanner queue={s.queue} />}
        {/* the queue's banner says it of queued work */}
        {s.next_step && !(s.queue && !s.next_step.command) && (
          <div className="banner banner-warn" role="status" data-testid="next-step">
            {s.next_step.command ? (
              <span>
                Nothing runs this workflow now. To go on: <code>{s.next_step.command}</code> (
                <Words text={s.next_step.reason} />
                ).
              </span>
            ) : (
              <span>
                In progress, waiting for a worker: <Words text={s.next_step.reason} />.
              </span>
            )}
          </div>
        )}
        {isResumable(w.status) && (
          <p className="small">
            <a href={hrefOf.recover(w.id)} data-testid="recovery-link">
              Recovery options: what each would change
            </a>
          </p>
        )}
        {/* a usage limit still in force: whether it has lifted is what the user asks first, as `baton status` says it */}
        {s.usage_limit && (
          <div className="banner banner-warn" role="status" data-testid="usage-limit">
            <span>The agent&apos;s last turn was {s.usage_limit}.</span>
          </div>
        )}
        {/* the API failed under the agent at the end of its last turn: the turn to retry, no open error of the work */}
        {s.api_error && (
          <div className="banner banner-warn" role="status" data-testid="api-error">
            <span>The agent&apos;s last turn was cut off: {s.api_error}.</span>
          </div>
        )}
        <AgentWatchBanners status={s} />
        {s.warnings.map((x) => (
          <div key={x} className="banner banner-warn">
            {x}
          </div>
        ))}
      </section>

      {snapshotId && (
        <SnapshotDetail
          key={snapshotId}
          workflowId={id}
          snapshotId={snapshotId}
          checkpoint={s.snapshots.find((x) => x.id === snapshotId)?.checkpoint}
        />
      )}

      <div className="grid-main">
        <div className={starting ? 'panel-disabled' : undefined} aria-disabled={starting || undefined}>
          <TaskList status={s} />
          <WorkStatePanel workflowId={id} status={s} refresh={refresh} />
          {/* followed while something runs it: in progress with nothing to do first (`next_step`) */}
          <AgentOutput
            workflowId={id}
            refresh={refresh}
            running={w.status === 'in_progress' && !s.next_step}
          />
          <PlanPanel
            plan={view.data?.workflow.plan ?? ''}
            decisions={s.recent_decisions}
            total={decisionCount}
            detailsPath={latest ? `/workflows/${seg(id)}/snapshots/${seg(latest.id)}/decisions` : ''}
          />
          <ResumeContextPanel workflowId={id} refresh={refresh} />
          <EventHistory workflowId={id} version={w.version} refresh={refresh} />
        </div>
        <div>
          {session.data && (
            <SessionStatusPanel
              session={session.data}
              busy={commands.busy !== null}
              onResume={() => void commands.resume()}
              hooked={s.following_agent !== null}
            />
          )}
          <WorkflowUsage workflowId={id} status={s} refresh={refresh} />
          {timeline.data && <SessionTimeline timeline={timeline.data} />}
          <SnapshotList workflowId={id} snapshots={s.snapshots} selected={snapshotId} />
          <ActivityFeed workflowId={id} />
        </div>
      </div>
    </div>
  );
}
