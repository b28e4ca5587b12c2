import { shortHash, theirCheckpointWords, type RecoveryOption, type Teammate } from '../api/index.js';

const short = (sha: string | null | undefined) => shortHash(sha, '?');

/**
 * One recovery option: what it gives up, and what choosing it would change (tasks, branch, commits, files). A
 * teammate's checkpoint (`teammate`: the workflow is theirs) is not restored from here: the card says whose it is and
 * where it is restored, and offers only the records (`onChoose` then puts back the records alone). A fresh start,
 * which loses every task's progress, is offered in red and asks first (the page's confirmation).
 */
export function RecoveryOptionCard({
  option: o,
  workflowId,
  teammate,
  recommended,
  busy,
  onChoose,
}: {
  option: RecoveryOption;
  workflowId: string;
  teammate: Teammate | null;
  recommended: boolean;
  busy: boolean;
  onChoose: () => void;
}) {
  const c = o.changes;
  const theirs =
    o.type === 'checkpoint' && teammate ? theirCheckpointWords(teammate, workflowId, o.target) : null;
  // a teammate's: no plan is shown from the clone at their path here, whatever the server read
  const g = theirs ? null : (c?.git ?? null);
  return (
    <article className="card option" data-option={o.type} aria-labelledby={`option-${o.type}`}>
      <div className="card-head">
        <h2 id={`option-${o.type}`}>
          {o.type === 'checkpoint'
            ? `Checkpoint ${o.target}`
            : o.type === 'live_state'
              ? 'Live state'
              : 'Fresh start'}
        </h2>
        {recommended && <span className="tag tag-ok">recommended</span>}
        <span className="spacer" />
        {/* the option that loses work looks like it: a red outline, not the blue of the ones that keep it */}
        <button
          type="button"
          className={`btn ${o.type === 'fresh' ? 'btn-danger-ghost' : 'btn-primary'}`}
          disabled={busy}
          onClick={onChoose}
        >
          {theirs
            ? 'Restore only the records'
            : o.type === 'checkpoint'
              ? 'Restore this checkpoint'
              : o.type === 'live_state'
                ? 'Resume from the live state'
                : 'Start fresh'}
        </button>
      </div>
      <p>{theirs ? theirs.description : o.description}</p>
      {theirs && (
        <div className="banner banner-info" data-testid="their-checkpoint">
          {/* one span: the banner is a flex row, and each bare text and code would be a column of its own */}
          <span>
            <span className="tag">{theirs.whose}</span> Not yours to restore here: {theirs.where}{' '}
            <code>{theirs.command}</code>. {theirs.instead}
          </span>
        </div>
      )}
      <dl className="facts">
        <dt>Data loss</dt>
        <dd data-testid="data-loss">{o.data_loss}</dd>
        {o.context_tokens !== undefined && (
          <>
            <dt>Hand-over</dt>
            <dd>
              {o.context_tokens.toLocaleString()} tokens of context
              {o.estimated_cost_usd !== undefined ? ` (~$${o.estimated_cost_usd.toFixed(4)})` : ''}
            </dd>
          </>
        )}
        <dt>Tasks</dt>
        <dd data-testid="task-changes">
          {c?.tasks.length ? c.tasks.map((t) => `${t.task_id}: ${t.from} → ${t.to}`).join(', ') : 'unchanged'}
        </dd>
        <dt>Worktree</dt>
        <dd data-testid="git-changes">
          {theirs ? (
            'left as it is (only the records go back from here)'
          ) : g ? (
            g.moves_branch ? (
              <>
                <code>{g.branch ?? 'HEAD'}</code> moves from <code>{short(g.from)}</code> to{' '}
                <code>{short(g.to)}</code>
              </>
            ) : (
              <>
                <code>{g.branch ?? 'HEAD'}</code> is already at the checkpoint
              </>
            )
          ) : (
            (c?.note ?? 'left as it is')
          )}
        </dd>
      </dl>
      {g && g.commits_count > 0 && (
        <div className="option-commits" data-testid="commits-leaving">
          <p className="small">
            <strong>
              {g.commits_count} commit{g.commits_count === 1 ? '' : 's'} would leave the branch
            </strong>
            , kept on a backup ref <code>{g.backup_ref_prefix ?? 'refs/baton/backup/'}&lt;time&gt;</code>:
          </p>
          <ul className="commits">
            {g.commits.map((x) => (
              <li key={x.sha}>
                <code>{short(x.sha)}</code> {x.subject}
              </li>
            ))}
          </ul>
        </div>
      )}
      {g && g.files_count > 0 && (
        <details className="small" data-testid="files-changing">
          <summary>
            {g.files_count} file{g.files_count === 1 ? '' : 's'} would change
          </summary>
          <ul className="files">
            {g.files.map((f) => (
              <li key={f.path}>
                <code>{f.status}</code> {f.path}
              </li>
            ))}
          </ul>
        </details>
      )}
      {g && g.dirty_files.length > 0 && (
        <p className="banner banner-warn small">
          Uncommitted now: {g.dirty_files.join(', ')}. A restore stashes them first.
        </p>
      )}
    </article>
  );
}
