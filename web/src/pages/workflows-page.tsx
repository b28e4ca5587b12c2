import { severalOwners, teammateOf, type Owners, type SessionsTable } from '../api/index.js';
import { ResumableSessions } from '../components/resumable-sessions.js';
import { WorkflowList } from '../components/workflow-list.js';
import { useApi } from '../hooks/use-api.js';
import { useLiveTick } from '../live/index.js';

/**
 * `#/`: the resumable sessions, then every workflow. The sessions table is read once for both: it says what each
 * workflow waits for its user to look at (`needs_you`), on its row in either list, and, on a database a team shares,
 * whose each one is and who the person served is (`you`): a teammate's waits for them, not for you.
 */
export function WorkflowsPage() {
  const tick = useLiveTick();
  const sessions = useApi<SessionsTable>('/sessions', tick);
  const rows = sessions.data?.sessions ?? [];
  const needs = new Map(rows.map((s) => [s.id, s.needs_you]));
  const you = sessions.data?.you;
  const owners: Owners = {
    you,
    shown: severalOwners(rows.map((s) => s.owner)) || rows.some((s) => teammateOf(s, you)),
  };
  return (
    <>
      {/* several people's workflows, and the server cannot tell which are yours: said, with what to do */}
      {owners.shown && you === null && (
        <div className="banner banner-warn" role="status" data-testid="no-identity">
          <span>
            These workflows are several people&apos;s, and no git identity is set where{' '}
            <code>baton serve</code> runs, so this page cannot tell yours from a teammate&apos;s: set yours
            there with <code>git config user.email you@example.com</code> (or GIT_AUTHOR_EMAIL in its
            environment) and start it again.
          </span>
        </div>
      )}
      <ResumableSessions data={sessions.data} error={sessions.error} owners={owners} />
      <WorkflowList needsYou={needs} owners={owners} />
    </>
  );
}
