import { useState } from 'react';
import {
  teammateOf,
  type Owners,
  type WorkflowList as WorkflowListData,
  type WorkflowStatus,
} from '../api/index.js';
import { hrefOf } from '../hooks/use-hash-route.js';
import { useApi } from '../hooks/use-api.js';
import { useLiveTick } from '../live/index.js';
import { ErrorNote } from './error-note.js';
import { NeedsYou, needingFirst } from './needs-you.js';
import { OwnerCell } from './owner-cell.js';
import { ProgressBar } from './progress-bar.js';
import { StatusBadge } from './status-badge.js';
import { TimeAgo } from './time-ago.js';

const filters: { label: string; statuses: WorkflowStatus[] }[] = [
  { label: 'All', statuses: [] },
  { label: 'Active', statuses: ['pending', 'in_progress', 'blocked'] },
  { label: 'Paused', statuses: ['paused'] },
  { label: 'Interrupted', statuses: ['interrupted'] },
  { label: 'Completed', statuses: ['completed'] },
  { label: 'Failed / cancelled', statuses: ['failed', 'cancelled'] },
];

/**
 * Every workflow, filtered by status (`GET /api/workflows?status=a,b`); those that wait for their user to look at
 * something first, saying what (`needsYou`: the sessions table's `needs_you` by workflow id); on a database a team
 * shares, whose each one is (`owners`), a teammate's waiting for them, not for you.
 */
export function WorkflowList({
  needsYou,
  owners,
}: {
  needsYou: ReadonlyMap<string, readonly string[]>;
  owners: Owners;
}) {
  const [filter, setFilter] = useState(0);
  const tick = useLiveTick();
  const statuses = filters[filter]?.statuses ?? [];
  const path = statuses.length ? `/workflows?status=${statuses.join(',')}` : '/workflows';
  const { data: listed, error } = useApi<WorkflowListData>(path, tick);
  // as `baton list` (the CLI's rule: src/cli/hidden-empty.ts, which the web app cannot import): a cancelled workflow
  // that held nothing (a conversation opened and left) only where asked for
  const left = (w: WorkflowListData['workflows'][number]) => w.status === 'cancelled' && w.empty;
  const hidden = statuses.length ? 0 : (listed?.workflows.filter(left).length ?? 0);
  const data = listed && hidden ? { ...listed, workflows: listed.workflows.filter((w) => !left(w)) } : listed;

  return (
    <section className="card" aria-labelledby="workflows-title">
      <div className="card-head">
        <h2 id="workflows-title">Workflows</h2>
        <div className="filters" role="group" aria-label="status filter">
          {filters.map((f, i) => (
            <button
              key={f.label}
              type="button"
              className={`chip${i === filter ? ' chip-on' : ''}`}
              aria-pressed={i === filter}
              onClick={() => setFilter(i)}
            >
              {f.label}
            </button>
          ))}
        </div>
      </div>
      {error && <ErrorNote error={error} what="the workflows" />}
      {data && data.workflows.length === 0 && statuses.length > 0 && (
        <p className="muted">No workflows with this status.</p>
      )}
      {/* as the README says it: with an agent's hooks nobody creates a workflow; `baton create` is for work by hand */}
      {data && data.workflows.length === 0 && statuses.length === 0 && (
        <p className="muted" data-testid="no-workflows">
          No workflows yet. With Claude Code or Codex, run <code>baton init</code> in the git repository you
          work in, then use your agent as usual: each conversation&apos;s workflow appears here by itself. To
          track work by hand instead: <code>baton create --title ... --task ID:Title</code> in a git worktree.
        </p>
      )}
      {hidden > 0 && (
        <p className="muted small" data-testid="hidden-empty">
          {hidden} cancelled workflow{hidden === 1 ? '' : 's'} that held nothing {hidden === 1 ? 'is' : 'are'}{' '}
          not shown here: Failed / cancelled lists {hidden === 1 ? 'it' : 'them'}.
        </p>
      )}
      {data && data.workflows.length > 0 && (
        <table className="table table-stack" data-testid="workflow-list">
          <thead>
            <tr>
              <th>Workflow</th>
              <th>Status</th>
              <th>Progress</th>
              <th>Sessions</th>
              <th>Next task</th>
              <th>Updated</th>
              {owners.shown && <th>Owner</th>}
            </tr>
          </thead>
          <tbody>
            {needingFirst(data.workflows, (w) =>
              teammateOf(w, owners.you) ? undefined : needsYou.get(w.id),
            ).map((w) => {
              const theirs = teammateOf(w, owners.you);
              return (
                <tr key={w.id}>
                  <td data-label="Workflow">
                    <a href={hrefOf.workflow(w.id)} className="strong">
                      {w.title}
                    </a>
                    <div className="muted small">
                      <code>{w.id}</code> · {w.branch ? <>{w.branch} · </> : null}
                      {w.worktree}
                    </div>
                    <NeedsYou words={needsYou.get(w.id)} owner={theirs?.owner ?? null} />
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={w.status} />
                    {w.pause_requested && w.status !== 'paused' && (
                      <span className="tag">pause requested</span>
                    )}
                  </td>
                  <td data-label="Progress">
                    <ProgressBar
                      done={w.counts['done'] ?? 0}
                      total={w.tasks.length}
                      skipped={w.counts['skipped'] ?? 0}
                    />
                    {(w.counts['failed'] ?? 0) > 0 && (
                      <span className="tag tag-bad" data-testid="failed-tasks">
                        {w.counts['failed']} failed
                      </span>
                    )}
                  </td>
                  <td data-label="Sessions">{w.session_count}</td>
                  <td data-label="Next task">
                    {w.next_task ? (
                      `${w.next_task.id}: ${w.next_task.title}`
                    ) : (
                      <span className="muted">-</span>
                    )}
                  </td>
                  <td data-label="Updated">
                    <TimeAgo at={w.updated_at} />
                  </td>
                  {owners.shown && <OwnerCell owner={w.owner} you={owners.you} />}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
