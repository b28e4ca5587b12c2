import { z } from 'zod';
import { GitState } from './git-state.js';
import {
  Decision,
  ErrorRecord,
  ReviewerFeedback,
  Summary,
  TestState,
  CiState,
  UsageMetrics,
  UserRequest,
} from './records.js';
import { SideEffect } from './runtime.js';
import { Issue, SnapshotTrigger, Task } from './workflow.js';

/**
 * The worktree's branch changed since the workflow's previous snapshot (`since: 'snapshot'`, taken `at`) or, before any,
 * since it began: the briefing warns that the work done on `from` is not on `to`.
 */
export const BranchChange = z.object({
  from: z.string(),
  to: z.string(),
  since: z.enum(['snapshot', 'start']),
  at: z.string(),
});
export type BranchChange = z.infer<typeof BranchChange>;

/**
 * The SessionSnapshot of the Amelia design: the point-in-time state a later session resumes from.
 * `decisions` and `errors` hold the recent ones (the newest OPEN_ERRORS_LIMIT unresolved errors, and how many more are
 * open in `open_errors_more`); the complete lists stay
 * retrievable by `through_seq`, the last event the snapshot covers.
 */
export const SessionSnapshot = z.object({
  schema_version: z.literal(1),
  id: z.string(),
  workflow_id: z.string(),
  session_number: z.number().int().positive(),
  created_at: z.string(),
  trigger: SnapshotTrigger,
  pause_reason: z.string().nullable(),
  through_seq: z.number().int().nonnegative(),
  /** The workflow's title (snapshots stored before it was kept have none). */
  title: z.string().optional(),

  issue: Issue.nullable(),
  plan: z.string(),
  tasks: z.array(Task),
  current_task_id: z.string().nullable(),
  next_task_id: z.string().nullable(),
  /** The tasks finished (done or skipped) when it was taken: `tasks` says them apart. */
  tasks_completed: z.number().int().nonnegative(),
  tasks_remaining: z.number().int().nonnegative(),

  git_state: GitState.nullable(),
  git_note: z.string().nullable(),
  /** Set when the branch is not the one the previous snapshot (or the workflow's start) saw. */
  branch_changed: BranchChange.optional(),

  decisions: z.array(Decision),
  decisions_total: z.number().int().nonnegative(),
  errors: z.array(ErrorRecord),
  errors_total: z.number().int().nonnegative(),
  /** Unresolved errors older than those in `errors` (the state keeps the newest OPEN_ERRORS_LIMIT open ones). */
  open_errors_more: z.number().int().nonnegative().optional(),
  reviewer_feedback: z.array(ReviewerFeedback).nullable(),
  test_state: TestState.nullable(),
  /** The newest CI report the agent read: said with the last local run (TDD State). */
  ci_state: CiState.nullable().optional(),
  usage: UsageMetrics,
  recent_history: z.array(z.string()),
  /** The user's recent requests, in their words, oldest first (all of them are `request` records). */
  requests: z.array(UserRequest).default([]),
  /** Requests older than those in `requests` (the state keeps the recent ones; all are `request` records). */
  requests_more: z.number().int().nonnegative().optional(),
  /** Of those older requests, the ones that limit what the agent may do, which stay in force (oldest first). */
  standing_requests: z.array(UserRequest).optional(),
  /** Side effects already done (commits, pushes, PRs, migrations, file writes): the next session must not redo them. */
  side_effects: z.array(SideEffect).default([]),
  /**
   * The agent's latest compaction summary and last message, kept whole (the context trims them to fit), and the latest
   * usage limit a turn ended on and interruption of a turn by the user.
   */
  summaries: z
    .object({
      compaction: Summary.nullable(),
      last_message: Summary.nullable(),
      usage_limit: Summary.nullable().optional(),
      api_error: Summary.nullable().optional(),
      interrupted: Summary.nullable().optional(),
    })
    .default({ compaction: null, last_message: null }),
  warnings: z.array(z.string()),
  /**
   * When a hook last saw the agent's turn end (a Stop): a last message said before then ended a turn, whatever it
   * announced. Absent when no hook saw one (a transcript import, `baton run`), and on older snapshots.
   */
  turn_ended_at: z.string().optional(),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;

export const SnapshotSummary = SessionSnapshot.pick({
  id: true,
  workflow_id: true,
  session_number: true,
  trigger: true,
  created_at: true,
  tasks_completed: true,
  tasks_remaining: true,
  pause_reason: true,
  through_seq: true,
}).extend({
  /** The checkpoint made of this snapshot (its name), when one was: the lists name it. */
  checkpoint: z.string().optional(),
});
export type SnapshotSummary = z.infer<typeof SnapshotSummary>;

export const summarizeSnapshot = (s: SessionSnapshot): SnapshotSummary => ({
  id: s.id,
  workflow_id: s.workflow_id,
  session_number: s.session_number,
  trigger: s.trigger,
  created_at: s.created_at,
  tasks_completed: s.tasks_completed,
  tasks_remaining: s.tasks_remaining,
  pause_reason: s.pause_reason,
  through_seq: s.through_seq,
});
