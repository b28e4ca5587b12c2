import { branchInWords, hookedResume, isResumable, isTerminal, type SessionStatus } from '../api/index.js';
import { Spinner } from './spinner.js';
import { StatusBadge } from './status-badge.js';
import { Words } from './words.js';

interface Props {
  session: SessionStatus;
  /** Resume (or retry) the session: the workflow page's resume action. */
  onResume: () => void;
  busy: boolean;
  /** An agent's hooks follow the workflow: a resume starts no agent, that agent goes on with it. */
  hooked?: boolean;
}

const reasons: Record<string, string> = {
  agent_not_running: 'no agent is running this session',
  not_resumable: 'the agent cannot resume its previous session',
  superseded: 'a later session took over',
};

/**
 * The session-resumption design's UI states: executor `starting` (spinner; the workspace panels are disabled by the
 * page), `ready`, `error` (badge with a retry/resume action), `stopped`, and the banner for agents that cannot
 * resume (a session that is not running and whose workflow cannot be resumed, while the workflow is not finished).
 */
export function SessionStatusPanel({ session: s, onResume, busy, hooked = false }: Props) {
  const executor = s.executor_status;
  const paused = isResumable(s.workflow_status);
  return (
    <section className="card" aria-labelledby="session-status-title" data-testid="session-status">
      <div className="card-head">
        <h2 id="session-status-title">Session {s.session_number}</h2>
        <StatusBadge status={s.state} title="session state" />
      </div>
      {executor === 'starting' && (
        <p className="executor executor-starting" data-executor="starting">
          <Spinner label="agent starting" /> Agent starting{s.runtime ? ` (${s.runtime})` : ''}: workspace
          panels are disabled until it is ready.
        </p>
      )}
      {executor === 'ready' && (
        <p className="executor" data-executor="ready">
          <StatusBadge status="ready" /> Agent ready{s.runtime ? ` (${s.runtime})` : ''}
        </p>
      )}
      {executor === 'error' && (
        <p className="executor" data-executor="error">
          <StatusBadge status="error" /> The agent&apos;s executor failed.{' '}
          <button type="button" className="btn btn-small" onClick={onResume} disabled={busy}>
            Retry
          </button>
        </p>
      )}
      {executor === 'stopped' && (
        <p className="executor" data-executor="stopped">
          <StatusBadge status="stopped" /> The agent&apos;s process has stopped.
        </p>
      )}
      {s.resume_reason === 'not_resumable' && !isTerminal(s.workflow_status) && (
        <div className="banner banner-warn" role="status">
          This agent doesn&apos;t support resuming. Start a new session.
        </div>
      )}
      {s.needs_resume && s.is_resumable && (
        <div className="banner banner-info" role="status" data-testid="session-resume">
          <span>
            Session {s.session_number} is not running: {reasons[s.resume_reason ?? ''] ?? 'it ended'}.
            {/* a paused or interrupted workflow has its Resume at the head of the page: one button, not two */}
            {paused &&
              (hooked
                ? ` Resume, at the top of the page, opens session ${s.session_number + 1}; ${hookedResume}.`
                : ' Resume, at the top of the page, starts the next session.')}
          </span>
          {!paused && (
            <button type="button" className="btn btn-primary btn-small" onClick={onResume} disabled={busy}>
              Resume session
            </button>
          )}
        </div>
      )}
      <dl className="facts">
        <dt>Agent running</dt>
        <dd data-testid="agent-running">
          <Words text={s.agent_running_note} />
        </dd>
        <dt>Resumable</dt>
        <dd>{s.is_resumable ? 'yes' : 'no'}</dd>
        <dt>Started</dt>
        <dd>{new Date(s.started_at).toLocaleString()}</dd>
        <dt>Current task</dt>
        <dd>{s.task_id ?? '-'}</dd>
        <dt>Tasks done this session</dt>
        <dd>
          {s.tasks_done} of {s.tasks_total}
        </dd>
        <dt>Worktree</dt>
        <dd>
          <code>{s.worktree_path}</code>
          {s.worktree_branch && (
            <>
              {' '}
              on{' '}
              {/* a detached HEAD is said in words, as the CLI says it (git's `(detached)` is no branch) */}
              {branchInWords(s.worktree_branch) === s.worktree_branch ? (
                <code>{s.worktree_branch}</code>
              ) : (
                branchInWords(s.worktree_branch)
              )}
            </>
          )}
        </dd>
      </dl>
    </section>
  );
}
