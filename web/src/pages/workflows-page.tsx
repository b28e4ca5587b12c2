import type { SessionsTable } from '../api/index.js';
import { ResumableSessions } from '../components/resumable-sessions.js';
import { WorkflowList } from '../components/workflow-list.js';
import { useApi } from '../hooks/use-api.js';
import { useLiveTick } from '../live/index.js';

/**
 * `#/`: the resumable sessions, then every workflow. The sessions table is read once for both: it says what each
 * workflow waits for its user to look at (`needs_you`), on its row in either list.
 */
export function WorkflowsPage() {
  const tick = useLiveTick();
  const sessions = useApi<SessionsTable>('/sessions', tick);
  const needs = new Map((sessions.data?.sessions ?? []).map((s) => [s.id, s.needs_you]));
  return (
    <>
      <ResumableSessions data={sessions.data} error={sessions.error} />
      <WorkflowList needsYou={needs} />
    </>
  );
}
