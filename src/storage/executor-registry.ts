/**
 * The `executors_running` table of the session-resumption design: where each Baton session's agent runs, its
 * resume token and its heartbeat. Operational data, not events: a heartbeat every 10 s only moves `last_seen_at`;
 * the service writes an event when something changes (interrupted, resumed, error).
 */
export type ExecutorStatus = 'starting' | 'ready' | 'error' | 'stopped';
export type ExecutorSessionState = 'running' | 'waiting_for_input' | 'error' | 'ended';
/** Where the agent runs: a child of Baton, a remote agent host, or an agent host in a Docker container. */
export type ExecutorRuntime = 'local' | 'remote' | 'docker';

export interface ExecutorRow {
  id: string;
  workflow_id: string;
  session_number: number;
  runtime: ExecutorRuntime;
  agent: string;
  status: ExecutorStatus;
  session_state: ExecutorSessionState;
  /** The current launch of the agent; resume tokens are written compare-and-set on it. */
  execution_id: string | null;
  resume_token: string | null;
  supports_session_resume: boolean;
  supports_workspace_only: boolean;
  /** Process identity of a local agent: pid plus its start time (a reused pid is not the same process). */
  pid: number | null;
  pid_start_time: string | null;
  /** A remote executor's base URL (`baton executor serve`) and its run id there. */
  endpoint: string | null;
  run_id: string | null;
  container_id: string | null;
  workspace_path: string;
  worktree_branch: string | null;
  /** The controller process that launched the current execution (`host:pid`). */
  owner: string | null;
  last_seen_at: string;
  error_message: string | null;
  created_at: string;
  updated_at: string;
}

export type ExecutorPatch = Partial<
  Omit<ExecutorRow, 'id' | 'workflow_id' | 'session_number' | 'created_at'>
>;

export interface ExecutorRegistry {
  insert(row: ExecutorRow): Promise<void>;
  get(id: string): Promise<ExecutorRow | null>;
  list(filter?: { status?: readonly ExecutorStatus[]; workflowId?: string }): Promise<ExecutorRow[]>;
  update(id: string, patch: ExecutorPatch): Promise<void>;
  /**
   * One launch per session at a time: takes the executor for a new execution only when its execution id is still
   * `expected` (compare-and-set). Returns false when another controller got there first.
   */
  claimExecution(
    id: string,
    expected: string | null,
    next: string,
    owner: string,
    at: string,
  ): Promise<boolean>;
  /** Writes the resume token only while `executionId` is the executor's current execution. */
  saveToken(id: string, executionId: string, token: string, at: string): Promise<boolean>;
  heartbeat(id: string, at: string): Promise<void>;
  /** Several updates in one transaction (startup recovery). */
  updateMany?(patches: readonly { id: string; patch: ExecutorPatch }[]): Promise<void>;
}
