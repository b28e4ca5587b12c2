import type { z } from 'zod';
import type {
  CheckpointRestore as CheckpointRestoreSchema,
  EventHistory as EventHistorySchema,
  GitChanges as GitChangesSchema,
  TaskLog as TaskLogSchema,
  TaskLogList as TaskLogListSchema,
  PauseResult as PauseResultSchema,
  RecoveryPlan as RecoveryPlanSchema,
  ContextRead as ContextReadSchema,
  ResumeContext as ResumeContextSchema,
  ResumeOutcome as ResumeOutcomeSchema,
  ResumeResult as ResumeResultSchema,
  SessionStatus as SessionStatusSchema,
  SessionsTable as SessionsTableSchema,
  SessionTimeline as SessionTimelineSchema,
  SnapshotList as SnapshotListSchema,
  SnapshotSchema,
  Status as StatusSchema,
  WorkflowList as WorkflowListSchema,
  WorkflowView as WorkflowViewSchema,
} from '../../../src/server/api/response-schemas.js';
import type { SubscriptionReset as SubscriptionResetSchema } from '../../../src/server/live/live-messages.js';
import type {
  Decision as DecisionSchema,
  ErrorRecord as ErrorRecordSchema,
  WorkflowStatus as WorkflowStatusSchema,
} from '../../../src/core/schemas/index.js';

/**
 * The dashboard's view of the API: the very zod schemas the server validates its responses with, imported as types
 * only (nothing of the server is bundled), so the two cannot drift apart unnoticed (`npm run typecheck`).
 */
export type Workflow = z.infer<typeof WorkflowViewSchema>;
export type WorkflowList = z.infer<typeof WorkflowListSchema>;
export type WorkflowStatus = z.infer<typeof WorkflowStatusSchema>;
export type Status = z.infer<typeof StatusSchema>;
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
export type SessionTimeline = z.infer<typeof SessionTimelineSchema>;
export type SessionsTable = z.infer<typeof SessionsTableSchema>;
export type SessionRow = SessionsTable['sessions'][number];
export type SnapshotList = z.infer<typeof SnapshotListSchema>;
export type SnapshotSummary = SnapshotList['snapshots'][number];
/** A snapshot as the API serves it: its errors with each API failure named (`api_failure`). */
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** An error as the API lists it: its record, and `api_failure` when it is the API failing under the agent. */
export type ErrorShown = Snapshot['errors'][number];
export type Decision = z.infer<typeof DecisionSchema>;
export type ErrorRecord = z.infer<typeof ErrorRecordSchema>;
export type ResumeContext = z.infer<typeof ResumeContextSchema>;
/** The context `GET .../context` compiles, with what it read of the workflow's transcripts first. */
export type ContextRead = z.infer<typeof ContextReadSchema>;
export type PauseResult = z.infer<typeof PauseResultSchema>;
export type ResumeResult = z.infer<typeof ResumeResultSchema>;
export type ResumeOutcome = z.infer<typeof ResumeOutcomeSchema>;
export type RecoveryPlan = z.infer<typeof RecoveryPlanSchema>;
export type RecoveryOption = RecoveryPlan['options'][number];
export type UsageMetrics = Status['usage'];
export type CheckpointRestore = z.infer<typeof CheckpointRestoreSchema>;
export type EventHistory = z.infer<typeof EventHistorySchema>;
export type TaskLogList = z.infer<typeof TaskLogListSchema>;
export type TaskLog = z.infer<typeof TaskLogSchema>;
export type GitChanges = z.infer<typeof GitChangesSchema>;

/** One message of the WebSocket `/ws` (README "Live events"; `GET /ws` in /openapi.json). */
export interface LiveMessage {
  type: string;
  position?: number;
  workflow_id?: string | null;
  session_number?: number | null;
  task_id?: string | null;
  data?: Record<string, unknown>;
}

/** `subscription.reset`: the `since` the client gave is beyond the end of the log (rebuilt); it now ends at `position`. */
export type SubscriptionReset = z.infer<typeof SubscriptionResetSchema>;
