import type { ExecutorRow } from '../../src/storage/executor-registry.js';

/**
 * An executor row of a workflow's session as a test needs it: a local Claude Code agent that can resume, in
 * `workspace`, its session running with no token saved yet; `over` sets what the test is about.
 */
export function executorRow(
  workflowId: string,
  workspace: string,
  over: Partial<ExecutorRow> = {},
  at = new Date().toISOString(),
): ExecutorRow {
  return {
    id: 'ex-1',
    workflow_id: workflowId,
    session_number: 1,
    runtime: 'local',
    agent: 'claude-code',
    status: 'ready',
    session_state: 'running',
    execution_id: null,
    resume_token: null,
    supports_session_resume: true,
    supports_workspace_only: true,
    pid: null,
    pid_start_time: null,
    endpoint: null,
    run_id: null,
    container_id: null,
    workspace_path: workspace,
    worktree_branch: null,
    owner: null,
    last_seen_at: at,
    error_message: null,
    created_at: at,
    updated_at: at,
    ...over,
  };
}
