import type {
  AddTaskInput,
  AgentTaskCall,
  AlsoOpen,
  AgentTaskSource,
  AgentTaskSync,
  CheckpointRef,
  ErrorRecord,
  GoneAgentNamed,
  ImportMark,
  RecoveryChoice,
  RecoveryPlan,
  SessionEnd,
  SnapshotShown,
  SnapshotSummary,
  SnapshotTrigger,
  Task,
  WatchedWorkflow,
  WorkflowStatus,
  WorktreeSetup,
} from '../core/index.js';
import type {
  BatonService,
  CheckpointRestore,
  CompiledContext,
  RestoreOptions,
  CreateWorkflowInput,
  InjectedContext,
  QueueEntry,
  QueueListing,
  SubmitRequest,
  StartInput,
  StartResult,
  TrackInput,
  TrackResult,
  DetailCategory,
  ImportMarker,
  RecordInput,
  ResumeResult,
  PersonResumeResult,
  SessionStatus,
  DetailsResult,
  DetailsPaging,
  StatusView,
  SessionRow,
  CleanupResult,
  ExecutorRow,
} from '../service/index.js';
import type { WorkflowView } from './views.js';

/** Which workflow a call is about: an id, or the worktree of a directory. */
export interface Ref {
  workflowId?: string | undefined;
  cwd?: string | undefined;
  /** The workflow of the agent conversation the caller runs inside: the one meant when several are open there. */
  following?: string | undefined;
  /**
   * What this machine's files say of a worktree's set-up, for the message of a worktree with no active workflow
   * (`WorkflowRef.setup`). Not sent to a server, whose message holds without it.
   */
  setup?: ((worktree: string) => Promise<WorktreeSetup | null>) | undefined;
}

/** Where an agent gets its context from: a Claude Code hook, the MCP server, the CLI, Baton's own runner. */
export type Channel = 'hook' | 'mcp' | 'cli' | 'runner';

/**
 * Who asks: `identity`, the git identity of the person where they are (the CLI's own; null: none is set there). Whose
 * a workflow is to them is told by it, a teammate's apart (its checkpoint not restored, its git state not read from
 * the clone at its path); absent, a server tells by the identity where it runs (the dashboard's).
 */
export interface AskedBy {
  identity?: string | null;
}

/**
 * Who asks a pause, resume or abandon, and `theirs`: they mean it of a teammate's workflow (refused without it, naming
 * whose it is: `--theirs` on the CLI, `"theirs": true` over the API).
 */
export interface PersonAsking extends AskedBy {
  theirs?: boolean;
}

export type TaskAction = 'start' | 'done' | 'fail' | 'block' | 'unblock' | 'skip';

export type { PersonResumeResult, RecordInput };

export interface PauseResult {
  workflow_id: string;
  outcome: 'paused' | 'requested' | 'already_requested' | 'already_paused';
  status: WorkflowStatus;
  snapshot_id: string | null;
  waiting_for: string[];
  /** The agent's turn the pause waits for, when it waits for one to end (asked mid-turn with no task in progress). */
  waiting_for_turn: { session_number: number; agent: string } | null;
  /**
   * The request that waits (`requested`: this one; `already_requested`: the one before, which stands as it was, its
   * reason kept), with how long it waits before the pause is forced.
   */
  pause_request: { reason: string | null; requested_at: string; timeout_ms?: number } | null;
  /** The reason this call gave that was not recorded (`already_requested` with a different reason). */
  ignored_reason: string | null;
  warning: string | null;
  /** The agent whose hooks follow the workflow (`followingAgent`: its name), null when none: the person goes on there. */
  following_agent: string | null;
  /**
   * Whether that agent's conversation is still open (true: its next prompt goes on; false: it ended), as the hooks of
   * the machine that paused it saw it; null when not known.
   */
  conversation_open: boolean | null;
  /** Why the next new agent conversation here completes it (`finishedWork`: paused once its work was done), or null. */
  completes_at_next_start: string | null;
}

/** A task moved (start, done, fail, block, unblock, skip): the workflow's new status and the task. */
export interface TaskResult {
  workflow_id: string;
  workflow_status: WorkflowStatus;
  task: Task | undefined;
  /** What the command reports beside (e.g. the snapshot a completed task took). */
  [extra: string]: unknown;
}

/** One record stored: its kind and the record as stored. */
export interface RecordResult<K extends RecordInput['kind'] = RecordInput['kind']> {
  workflow_id: string;
  kind: K;
  record: unknown;
}

export interface InterruptResult {
  workflow_id: string;
  status: WorkflowStatus;
  snapshot_id: string;
}

export interface TaskAddResult {
  workflow_id: string;
  workflow_status: WorkflowStatus;
  task: Task;
}

/** One imported transcript: its agent session id and how far it was read (the import mark). */
export type ImportView = ImportMark & { transcript_session_id: string };

/**
 * The one interface the CLI (and later the dashboard's API) speaks: in-process over the service, or over HTTP to
 * a Baton server. Both return the same JSON-ready shapes, so every command behaves the same in both modes.
 */
export interface BatonClient {
  create(input: CreateWorkflowInput): Promise<WorkflowView>;
  list(filter?: { status?: WorkflowStatus[]; worktree?: string }): Promise<WorkflowView[]>;
  get(ref: Ref): Promise<WorkflowView>;
  /**
   * `get`, with the worktree's other incomplete workflows when the one a reference without an id took was told apart
   * from them only by its conversation being at work last (`also_open`, empty otherwise): what a person's command
   * says beside it. `ask`: among several conversations' workflows it asks which instead (the Resume Protocol's "ask
   * which run to resume"), for a command that starts or queues an agent run on it (`baton run`, `baton submit`).
   */
  taken(ref: Ref, opts?: { ask?: boolean }): Promise<{ workflow: WorkflowView; also_open: AlsoOpen[] }>;
  status(ref: Ref): Promise<StatusView>;
  task(ref: Ref, action: TaskAction, taskId: string, note?: string | null): Promise<TaskResult>;
  /** Adds a task to the plan (`task.added`). */
  addTask(ref: Ref, input: AddTaskInput): Promise<TaskAddResult>;
  /** Follows the agent's own task list in the task graph; calls already applied write nothing. */
  syncAgentTasks(
    ref: Ref,
    /**
     * `tells`: the caller tells the agent the open tasks its list left out (`untied`), marked told; `read`: the calls
     * were read from the agent's transcript (an import), so the agent acts in the log, whoever reads them.
     */
    input: { source: AgentTaskSource; calls: AgentTaskCall[]; tells?: boolean; read?: boolean },
  ): Promise<{ workflow_id: string } & AgentTaskSync>;
  record<I extends RecordInput>(ref: Ref, input: I): Promise<RecordResult<I['kind']>>;
  /** An agent session Baton does not run (a hook): the worktree's workflow found or created, the session tied. */
  trackSession(input: TrackInput): Promise<TrackResult>;
  /** A session start: the workflow found or created (resumed), the session tied and the context handed over. */
  startAgentSession(input: StartInput): Promise<StartResult>;
  /** The context for an agent session, fitted to `max_chars`, its delivery and receipt recorded. */
  injectContext(ref: Ref, input: { max_chars: number; reason: string }): Promise<InjectedContext>;
  /** The agent compacted its context: the summary (Claude Code's) kept, the next prompt or start injects. */
  noteCompaction(
    ref: Ref,
    input: { agent: string; trigger: string | null; summary: string | null },
  ): Promise<{
    workflow_id: string;
    /** The next prompt injects (the compacted session has no context yet). */ reinject: boolean;
  }>;
  /** The agent's session ended (SessionEnd): the Baton session that follows it ends too. */
  endAgentSession(
    ref: Ref,
    input: { agent: { name: string; session_id: string }; reason: string | null },
  ): Promise<{ workflow_id: string } & SessionEnd>;
  /**
   * The agent's turn ended (Stop, StopFailure, SessionEnd): recorded once per turn; a pause that waited for it takes
   * effect (its snapshot).
   */
  endAgentTurn(
    ref: Ref,
    input: { agent: string },
  ): Promise<{ workflow_id: string; recorded: boolean; paused_snapshot_id: string | null }>;
  /** A checkpoint only after real work since the last one and at most every `interval_ms`. */
  checkpointIfDue(
    ref: Ref,
    input: { name: string; interval_ms: number },
  ): Promise<{ workflow_id: string; checkpoint: string | null; reason: string }>;
  /** Several records in one commit (transcript imports). */
  recordBatch(
    ref: Ref,
    inputs: RecordInput[],
    imported?: ImportMarker,
  ): Promise<{ workflow_id: string; count: number }>;
  resolveError(
    ref: Ref,
    errorId: string,
    resolution: ErrorRecord['resolution'],
    notes: string | null,
  ): Promise<{ workflow_id: string; error: ErrorRecord }>;
  addressFeedback(
    ref: Ref,
    reviewId: string,
  ): Promise<{ workflow_id: string; review_id: string; addressed: boolean }>;
  /**
   * `timeout_ms`: how long a requested pause waits before it is forced (the store's setting otherwise); `asked_by`
   * `agent`: the agent asks it itself (the MCP tool `request_pause`), so what it is told names it, not its user.
   */
  pause(
    ref: Ref,
    input: { reason?: string | null; force?: boolean; timeout_ms?: number; asked_by?: 'agent' },
    by?: PersonAsking,
  ): Promise<PauseResult>;
  /** A person's resume; on a workflow in progress with a pause requested, the request withdrawn (`pause_withdrawn`). */
  resume(ref: Ref, by?: PersonAsking): Promise<PersonResumeResult>;
  context(ref: Ref, budget?: number): Promise<CompiledContext>;
  /** Hands the current context to the running session and records the delivery (for the verified handoff). */
  deliverContext(ref: Ref, via: Channel, budget?: number): Promise<CompiledContext>;
  /** The hash a session loaded; `next`, when it is not the latest: what to do (read it, acknowledge it), CLI words. */
  acknowledge(
    ref: Ref,
    hash: string,
    via?: Channel,
  ): Promise<{ acknowledged: string; latest: string | null; matches: boolean; next?: string }>;
  snapshots(ref: Ref): Promise<{ workflow_id: string; snapshots: SnapshotSummary[] }>;
  /** One snapshot whole, its errors shown as of it (each API failure's `api_failure`, as `details` gives them). */
  snapshot(ref: Ref, snapshotId: string): Promise<SnapshotShown>;
  /**
   * Everything of one category as of a snapshot; with `null`, as the workflow stands now (its live snapshot). With
   * `paging`, the page of the category's records it asks for (`DetailsPage`).
   */
  details(
    ref: Ref,
    snapshotId: string | null,
    category: DetailCategory,
    paging?: DetailsPaging,
  ): Promise<DetailsResult>;
  checkpoint(ref: Ref, name: string): Promise<{ workflow_id: string; checkpoint: CheckpointRef }>;
  checkpoints(ref: Ref): Promise<{ workflow_id: string; checkpoints: CheckpointRef[] }>;
  /**
   * Every transcript imported and how far it was read, oldest first, with the parsers' carry-over (what an import
   * reads on from); with `path`, only that file's; with `recent`, only the recent ones (those the status lists).
   */
  imports(
    ref: Ref,
    path?: string,
    opts?: { recent?: boolean },
  ): Promise<{ workflow_id: string; imports: ImportView[] }>;
  recoveryOptions(ref: Ref, by?: AskedBy): Promise<RecoveryPlan>;
  recover(
    ref: Ref,
    option: RecoveryChoice,
    checkpoint: string | null,
    by?: PersonAsking,
  ): Promise<ResumeResult & { option: RecoveryChoice }>;
  interrupt(ref: Ref, reason: string): Promise<InterruptResult>;
  snapshotNow(
    ref: Ref,
    trigger: SnapshotTrigger,
    reason: string | null,
  ): Promise<{ workflow_id: string; snapshot_id: string }>;
  abandon(ref: Ref, reason: string | null, by?: PersonAsking): Promise<WorkflowView>;
  /**
   * The work is done: completed (from in progress), never offered for resume again. Tasks not done are refused
   * (`invalid_transition`, naming them) unless `force`: they are then left as they are.
   */
  complete(ref: Ref, input: { reason?: string | null; force?: boolean }): Promise<WorkflowView>;
  cleanup(input: { olderThanMs: number; dryRun: boolean }): Promise<CleanupResult>;
  /**
   * Every workflow with its step, status, how it can be resumed and what it waits for its user to look at
   * (`needs_you`); `goneAgents` names the agents the hooks of this machine saw go (a server uses its own machine's).
   */
  sessions(o?: { goneAgents?: (w: WatchedWorkflow) => readonly GoneAgentNamed[] }): Promise<SessionRow[]>;
  /** Every executor (`executors_running`): where each session's agent runs, its state and heartbeat. */
  executors(): Promise<{ executors: ExecutorRow[] }>;
  /** The session-resumption status of one session (default: the latest). */
  sessionStatus(ref: Ref, sessionNumber?: number): Promise<SessionStatus>;
  /** Every session of a workflow with its status, oldest first. */
  sessionTimeline(ref: Ref): Promise<{ workflow_id: string; sessions: SessionStatus[] }>;
  rebuild(workflowId?: string): Promise<{ workflows: number; events: number }>;
  /** Back to a checkpoint: the workflow state and the worktree; a restore that moves the branch needs `confirm`. */
  /**
   * `identity` (`AskedBy`): a teammate's checkpoint is refused by it (the service's, here or on a server, `isOwner`);
   * a server without one judges by its own (the dashboard's).
   */
  restoreCheckpoint(
    ref: Ref,
    checkpoint: string | null,
    opts: RestoreOptions & AskedBy,
  ): Promise<CheckpointRestore>;
  /** The workflow's events from a seq on (snapshots summarised): the dashboard's history. */
  history(ref: Ref, after?: number, limit?: number): ReturnType<BatonService['history']>;
  /** The task logs `baton run` keeps in the run folder, and one of them from a byte offset. */
  taskLogs(ref: Ref): ReturnType<BatonService['taskLogs']>;
  /** Whether the workflow's work is on another branch than the one its worktree has checked out. */
  standing(ref: Ref): ReturnType<BatonService['standing']>;
  taskLog(ref: Ref, name: string, offset?: number, limit?: number): ReturnType<BatonService['taskLog']>;
  /** Queues the workflow to be run by any worker (`baton worker`), with its agent profile. */
  submit(ref: Ref, input: SubmitRequest): Promise<QueueEntry>;
  /** The work queue: queued work in the order workers take it, then the work done. */
  queue(): Promise<{ entries: QueueListing[] }>;
  close(): Promise<void>;
}
