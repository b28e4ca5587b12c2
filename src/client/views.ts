import {
  finishedWork,
  isEmptyWorkflow,
  nextTaskOf,
  resumableBy,
  taskCounts,
  workflowBranch,
  type WorkflowState,
} from '../core/index.js';

/** The public shape of a workflow: what list, get and create return. */
export function workflowView(s: WorkflowState) {
  const next = nextTaskOf(s);
  return {
    id: s.id,
    title: s.title,
    issue: s.issue,
    worktree: s.worktree,
    /** Whose work it is (git's `user.email` in its worktree when it was made); null: not known. */
    owner: s.owner ?? null,
    /** The branch its work was last seen on (null: not known, or a detached HEAD). */
    branch: workflowBranch(s),
    status: s.status,
    plan: s.plan,
    pause_requested: s.pause_requested,
    paused_at: s.paused_at,
    pause_reason: s.pause_reason,
    /** `agent`: the pause in force is the agent's own (`request_pause`), not its user's; null otherwise. */
    pause_asked_by: s.pause_asked_by ?? null,
    /** The latest pause, resume or abandon asked by someone other than its owner (`teammateActText` says it). */
    teammate_act: s.teammate_act ?? null,
    session_count: s.session_count,
    /**
     * How it goes on (core `resumableBy`, as `baton sessions` and `baton status` judge it): `resume` (paused or
     * interrupted), `next_session` (at rest: the agent's next session in its worktree continues it), null otherwise.
     */
    resume_by: resumableBy(s, new Date().toISOString()),
    /** Why the next new agent conversation in its worktree completes it (`finishedWork`, as `baton status` says). */
    completes_at_next_start: finishedWork(s, new Date().toISOString()),
    version: s.version,
    created_at: s.created_at,
    updated_at: s.updated_at,
    tasks: s.tasks.map((t) => ({ id: t.id, title: t.title, status: t.status, deps: t.deps, lane: t.lane })),
    counts: taskCounts(s.tasks),
    next_task: next ? { id: next.id, title: next.title } : null,
    /** The agents' sessions its hooks followed (their session ids). */
    agent_sessions: [
      ...new Set(s.sessions.flatMap((x) => (x.agent?.session_id ? [x.agent.session_id] : []))),
    ],
    /** The transcript files it imported lately (their paths). */
    transcripts: [...new Set(Object.values(s.imports).flatMap((m) => (m.path ? [m.path] : [])))],
    /** Nothing in it: no issue, task, request or record (a conversation opened and left). */
    empty: isEmptyWorkflow(s),
  };
}
export type WorkflowView = ReturnType<typeof workflowView>;
