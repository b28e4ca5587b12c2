import type { WorkflowState } from './schemas/index.js';
import { isResumable } from './workflow-machine.js';

/**
 * The session a workflow's briefing is addressed to, as it stands: the session that goes on with the work. A paused
 * or interrupted workflow goes on only in a new session (a resume starts it), so its briefing is that next session's;
 * otherwise the session open now (the first, before any). The one rule for every surface that compiles a briefing
 * (`baton context`, the dashboard, MCP `get_resume_context`, a hook's injection, recovery's pricing), so that the same
 * workflow state gives the same briefing, and the same hash to acknowledge, wherever it is asked for.
 */
export const briefingSession = (s: Pick<WorkflowState, 'status' | 'session_count'>): number =>
  isResumable(s.status) ? s.session_count + 1 : Math.max(1, s.session_count);
