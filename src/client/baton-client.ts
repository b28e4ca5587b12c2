import type {
  ErrorRecord,
  RecoveryChoice,
  RecoveryPlan,
  SessionSnapshot,
  SnapshotSummary,
  SnapshotTrigger,
  WorkflowStatus,
} from '../core/index.js';
import type {
  BatonService,
  CheckpointRestore,
  CompiledContext,
  RestoreOptions,
  CreateWorkflowInput,
  DetailCategory,
  ImportMarker,
  RecordInput,
  ResumeResult,
  SessionStatus,
} from '../service/index.js';
import type { WorkflowView } from './views.js';

/** Which workflow a call is about: an id, or the worktree of a directory. */
export interface Ref {
  workflowId?: string | undefined;
  cwd?: string | undefined;
}

/** Where an agent gets its context from: a Claude Code hook, the MCP server, the CLI, Baton's own runner. */
export type Channel = 'hook' | 'mcp' | 'cli' | 'runner';

export type TaskAction = 'start' | 'done' | 'fail' | 'block' | 'unblock' | 'skip';

export type { RecordInput };

export interface PauseResult {
  workflow_id: string;
  outcome: 'paused' | 'requested' | 'already_paused';
  status: WorkflowStatus;
  snapshot_id: string | null;
  waiting_for: string[];
  warning: string | null;
}

/**
 * The one interface the CLI (and later the dashboard's API) speaks: in-process over the service, or over HTTP to
 * a Baton server. Both return the same JSON-ready shapes, so every command behaves the same in both modes.
 */
export interface BatonClient {
  create(input: CreateWorkflowInput): Promise<WorkflowView>;
  list(filter?: { status?: WorkflowStatus[]; worktree?: string }): Promise<WorkflowView[]>;
  get(ref: Ref): Promise<WorkflowView>;
  status(ref: Ref): Promise<unknown>;
  task(ref: Ref, action: TaskAction, taskId: string, note?: string | null): Promise<unknown>;
  record(ref: Ref, input: RecordInput): Promise<unknown>;
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
  ): Promise<unknown>;
  addressFeedback(ref: Ref, reviewId: string): Promise<unknown>;
  pause(ref: Ref, input: { reason?: string | null; force?: boolean }): Promise<PauseResult>;
  resume(ref: Ref): Promise<ResumeResult>;
  context(ref: Ref, budget?: number): Promise<CompiledContext>;
  /** Hands the current context to the running session and records the delivery (for the verified handoff). */
  deliverContext(ref: Ref, via: Channel, budget?: number): Promise<CompiledContext>;
  acknowledge(
    ref: Ref,
    hash: string,
    via?: Channel,
  ): Promise<{ acknowledged: string; latest: string | null; matches: boolean }>;
  snapshots(ref: Ref): Promise<{ workflow_id: string; snapshots: SnapshotSummary[] }>;
  snapshot(ref: Ref, snapshotId: string): Promise<SessionSnapshot>;
  details(ref: Ref, snapshotId: string, category: DetailCategory): Promise<unknown>;
  checkpoint(ref: Ref, name: string): Promise<unknown>;
  checkpoints(ref: Ref): Promise<unknown>;
  recoveryOptions(ref: Ref): Promise<RecoveryPlan>;
  recover(
    ref: Ref,
    option: RecoveryChoice,
    checkpoint: string | null,
  ): Promise<ResumeResult & { option: RecoveryChoice }>;
  interrupt(ref: Ref, reason: string): Promise<unknown>;
  snapshotNow(
    ref: Ref,
    trigger: SnapshotTrigger,
    reason: string | null,
  ): Promise<{ workflow_id: string; snapshot_id: string }>;
  abandon(ref: Ref, reason: string | null): Promise<WorkflowView>;
  cleanup(input: { olderThanMs: number; dryRun: boolean }): Promise<unknown>;
  sessions(): Promise<unknown[]>;
  /** The session-resumption status of one session (default: the latest). */
  sessionStatus(ref: Ref, sessionNumber?: number): Promise<SessionStatus>;
  /** Every session of a workflow with its status, oldest first. */
  sessionTimeline(ref: Ref): Promise<{ workflow_id: string; sessions: SessionStatus[] }>;
  rebuild(workflowId?: string): Promise<{ workflows: number; events: number }>;
  /** Back to a checkpoint: the workflow state and the worktree; a restore that moves the branch needs `confirm`. */
  restoreCheckpoint(ref: Ref, checkpoint: string | null, opts: RestoreOptions): Promise<CheckpointRestore>;
  /** The workflow's events from a seq on (snapshots summarised): the dashboard's history. */
  history(ref: Ref, after?: number, limit?: number): ReturnType<BatonService['history']>;
  /** The task logs `baton run` keeps in the run folder, and one of them from a byte offset. */
  taskLogs(ref: Ref): ReturnType<BatonService['taskLogs']>;
  taskLog(ref: Ref, name: string, offset?: number, limit?: number): ReturnType<BatonService['taskLog']>;
  close(): Promise<void>;
}
