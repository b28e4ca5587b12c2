import { seg, type GitChanges, type Status } from '../api/index.js';
import { useApi } from '../hooks/use-api.js';
import { ErrorList } from './error-list.js';
import { ErrorNote } from './error-note.js';
import { GitStatePanel } from './git-state-panel.js';
import { Spinner } from './spinner.js';
import { TddStatePanel } from './tdd-state-panel.js';

/**
 * The workflow as it stands, in parts of its own (the briefing says them too, inside its text): the open errors and
 * the tests from the status, and the git state of the worktree now (the git changes of `live-<version>`, the workflow
 * as it stands, which `baton details` reads); of a finished workflow, the git state it ended at (the server answers
 * its last snapshot's, with a note that says so): later work in its worktree is another workflow's.
 */
export function WorkStatePanel({
  workflowId,
  status,
  refresh,
}: {
  workflowId: string;
  status: Status;
  refresh: unknown;
}) {
  const live = `/workflows/${seg(workflowId)}/snapshots/live-${status.workflow.version}`;
  // the live snapshot's name changes with every event (a Resume's among them), its worktree's git state is the same
  // thing read anew: the last one read stays on screen until the new one comes, rather than a spinner
  const git = useApi<GitChanges>(`${live}/git-changes`, refresh, undefined, `${workflowId}/git-changes`);
  // the API failing under the agent is no open error of the work (the banner above says the turn it cut off)
  const open = status.counts.open_errors - (status.counts.open_api_failures ?? 0);
  const ofWork = status.open_errors.filter((e) => !e.api_failure);
  return (
    <section className="card" aria-labelledby="work-state-title" data-testid="work-state">
      <h2 id="work-state-title">Work state</h2>
      <div className="grid-2">
        <div data-testid="open-errors">
          <h3>Open errors ({open})</h3>
          {open === 0 ? (
            <p className="muted small">No open errors.</p>
          ) : (
            <ErrorList errors={ofWork} total={open} detailsPath={`${live}/errors`} />
          )}
          <h3>Tests</h3>
          <TddStatePanel test={status.test_state} />
        </div>
        <div>
          <h3>Git</h3>
          {git.error ? (
            <ErrorNote error={git.error} what="the git state" />
          ) : git.data ? (
            <GitStatePanel git={git.data.git_state} note={git.data.note} />
          ) : (
            <Spinner label="reading the git state" />
          )}
        </div>
      </div>
    </section>
  );
}
