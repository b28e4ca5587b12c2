import { shortHash as short, type Snapshot } from '../api/index.js';

/**
 * The git state at snapshot time (branch, commits, modified and staged files), and the files changed only by Baton's
 * own instructions block, named apart since they are not counted as work.
 */
export function GitStatePanel({ git, note }: { git: Snapshot['git_state']; note: string | null }) {
  if (!git) return <p className="muted small">{note ?? 'No git state captured.'}</p>;
  return (
    <div data-testid="git-state">
      {/* files still holding conflict markers: said first, before "uncommitted" reads as work to commit */}
      {git.conflict && (
        <p className="banner banner-warn" data-testid="git-conflict">
          {git.conflict.unmerged.length > 0 ? (
            <>
              Unresolved merge conflict in{' '}
              {git.conflict.unmerged.map((f) => (
                <code key={f}>{f} </code>
              ))}
              : resolve the markers before committing.
            </>
          ) : null}
          {git.conflict.operation && <> A {git.conflict.operation} is in progress.</>}
        </p>
      )}
      <dl className="facts">
        <dt>Branch</dt>
        <dd>
          <code>{git.branch}</code>
        </dd>
        <dt>Commit</dt>
        <dd>
          <code>{short(git.commit_at_snapshot)}</code>
          <span className="muted small"> (at start {short(git.commit_at_workflow_start)})</span>
        </dd>
        <dt>Uncommitted</dt>
        <dd>{git.has_uncommitted_changes ? (git.uncommitted_summary ?? 'yes') : 'clean'}</dd>
      </dl>
      {git.baton_block?.length ? (
        <p className="muted small" data-testid="git-baton-block">
          Not counted: Baton's instructions block in{' '}
          {git.baton_block.map((f) => (
            <code key={f}>{f} </code>
          ))}
          (from <code>baton init</code>)
        </p>
      ) : null}
      {git.files_modified.length > 0 && (
        <div className="small">
          Changed since the workflow began:{' '}
          {git.files_modified.map((f) => (
            <code key={f}>{f} </code>
          ))}
        </div>
      )}
      {git.files_staged.length > 0 && (
        <div className="small">
          Staged:{' '}
          {git.files_staged.map((f) => (
            <code key={f}>{f} </code>
          ))}
        </div>
      )}
      {note && <p className="muted small">{note}</p>}
    </div>
  );
}
