import type { EventOf } from '../schemas/events.js';
import { emptyUsage } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import type { Task } from '../schemas/workflow.js';

/** The state `workflow.created` starts a workflow in. */
export function initialState(e: EventOf<'workflow.created'>): WorkflowState {
  return {
    schema_version: 1,
    id: e.workflow_id,
    version: 0,
    title: e.data.title,
    issue: e.data.issue,
    worktree: e.data.worktree,
    plan: e.data.plan,
    status: 'pending',
    pause_requested: false,
    pause_request: null,
    paused_at: null,
    pause_reason: null,
    pause_trigger: null,
    interrupted_at: null,
    interrupt_reason: null,
    session_count: 0,
    sessions: [],
    created_at: e.at,
    updated_at: e.at,
    started_at: null,
    ended_at: null,
    git_start: e.data.git_start,
    tasks: e.data.tasks.map((t): Task => ({
      ...t,
      status: 'pending',
      started_at: null,
      ended_at: null,
      session_number: null,
      note: null,
    })),
    counts: {
      decisions: 0,
      errors: 0,
      history: 0,
      feedback: 0,
      test_runs: 0,
      usage: 0,
      snapshots: 0,
      checkpoints: 0,
      open_errors: 0,
    },
    recent_decisions: [],
    open_errors: [],
    recent_resolved_errors: [],
    recent_history: [],
    open_feedback: [],
    test_state: null,
    usage: emptyUsage(),
    checkpoints: [],
    last_snapshot: null,
    warnings: [],
    imports: {},
    handoff: null,
    ...(e.data.auto_tracked ? { auto_tracked: true } : {}),
  };
}
