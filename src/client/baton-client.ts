import type {
  Decision,
  ErrorRecord,
  RecoveryChoice,
  RecoveryPlan,
  ReviewerFeedback,
  SessionSnapshot,
  SnapshotSummary,
  TestState,
  UsageMetrics,
  WorkflowStatus,
} from '../core/index.js';
import type { CreateWorkflowInput, DetailCategory, ResumeResult, SessionStatus } from '../service/index.js';
import type { WorkflowView } from './views.js';

/** Which workflow a call is about: an id, or the worktree of a directory. */
export interface Ref {
  workflowId?: string | undefined;
  cwd?: string | undefined;
}

export type TaskAction = 'start' | 'done' | 'fail' | 'block' | 'unblock' | 'skip';

export type RecordInput =
  | { kind: 'decision'; decision: Omit<Decision, 'id' | 'timestamp'> }
  | { kind: 'error'; error: Omit<ErrorRecord, 'id' | 'timestamp'> }
  | { kind: 'history'; text: string; task_id: string | null; source: string | null }
  | { kind: 'test'; test: Omit<TestState, 'last_test_run_at'> }
  | { kind: 'usage'; usage: UsageMetrics }
  | { kind: 'feedback'; feedback: Omit<ReviewerFeedback, 'review_id' | 'timestamp'> };

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
  resolveError(
    ref: Ref,
    errorId: string,
    resolution: ErrorRecord['resolution'],
    notes: string | null,
  ): Promise<unknown>;
  addressFeedback(ref: Ref, reviewId: string): Promise<unknown>;
  pause(ref: Ref, input: { reason?: string | null; force?: boolean }): Promise<PauseResult>;
  resume(ref: Ref): Promise<ResumeResult>;
  context(ref: Ref): Promise<{ workflow_id: string; snapshot_id: string; markdown: string; json: unknown }>;
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
  abandon(ref: Ref, reason: string | null): Promise<WorkflowView>;
  cleanup(input: { olderThanMs: number; dryRun: boolean }): Promise<unknown>;
  sessions(): Promise<unknown[]>;
  /** The session-resumption status of one session (default: the latest). */
  sessionStatus(ref: Ref, sessionNumber?: number): Promise<SessionStatus>;
  /** Every session of a workflow with its status, oldest first. */
  sessionTimeline(ref: Ref): Promise<{ workflow_id: string; sessions: SessionStatus[] }>;
  rebuild(workflowId?: string): Promise<{ workflows: number; events: number }>;
  close(): Promise<void>;
}
