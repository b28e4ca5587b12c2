import { ResumableSessions } from '../components/resumable-sessions.js';
import { WorkflowList } from '../components/workflow-list.js';

/** `#/`: the resumable sessions, then every workflow. */
export function WorkflowsPage() {
  return (
    <>
      <ResumableSessions />
      <WorkflowList />
    </>
  );
}
