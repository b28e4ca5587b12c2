import { z } from 'zod';
import { TeammateAct } from '../teammate-act.js';
import { GitMark, GitStart } from './git-state.js';
import {
  Decision,
  ErrorRecord,
  HistoryEntry,
  ReviewerFeedback,
  Summary,
  TestState,
  CiState,
  UsageMetrics,
  UsageTotals,
  UserRequest,
} from './records.js';
import { InterruptRecovery } from './interrupt-recovery.js';
import { AgentRuntime, SideEffect } from './runtime.js';
import { AgentTaskList } from './agent-tasks.js';
import {
  CheckpointRef,
  EarlierWorkflow,
  Issue,
  SessionInfo,
  SnapshotTrigger,
  Task,
  WorkflowStatus,
} from './workflow.js';

/** How many recent items of each unbounded record kind the folded state keeps (the rest is in the records). */
export const RECENT_LIMIT = 10;

/**
 * How many open (unresolved) errors the folded state keeps, newest last. Every open error matters for the resume
 * context, but a workflow whose agent never resolves its errors would grow the state without end: past this many the
 * oldest open errors stay only in the `error` records, `counts.open_errors` keeps the total, and the resume context
 * says how many more are open (`baton details <snapshot> errors` lists them all).
 */
export const OPEN_ERRORS_LIMIT = 20;

export const PauseRequest = z.object({
  requested_at: z.string(),
  reason: z.string().nullable(),
  trigger: SnapshotTrigger,
  /** How long it waits for its task boundary or turn's end before it is forced (the timeout it was requested with). */
  timeout_ms: z.number().int().positive().optional(),
  /**
   * `turn_end`: it waits for the end of the agent's turn (its Stop) rather than for a task boundary: asked while that
   * turn was under way with no task in progress, or since the boundary it waited for finished every task mid-turn
   * (`workflow.pause_deferred`).
   */
  until: z.literal('turn_end').optional(),
  /** The git email of the person who asked it (`workflow.pause_requested`'s `by`): the pause it makes is theirs. */
  by: z.string().optional(),
  /** Whether that person is the workflow's owner (`workflow.pause_requested`'s `by_owner`). */
  by_owner: z.boolean().optional(),
  /** `agent`: the agent asked it itself (`request_pause`), not its user; the words that name who asked say so. */
  asked_by: z.literal('agent').optional(),
});
export type PauseRequest = z.infer<typeof PauseRequest>;

/** How far a transcript was imported: its format, path, the last line and byte read, and the parser's carry-over. */
/** Where a transcript says its agent worked: the folder and the branch it had checked out. */
export const RecordedIn = z.object({ cwd: z.string().nullable(), branch: z.string().nullable() });
export type RecordedIn = z.infer<typeof RecordedIn>;

export const ImportMark = z.object({
  format: z.string(),
  path: z.string().nullable(),
  through_line: z.number().int(),
  through_byte: z.number().int().optional(),
  parser_state: z.unknown().optional(),
  /** Where the transcript says the agent worked: its folder and the branch checked out there (the latest). */
  recorded_in: RecordedIn.optional(),
  /** When the import that left this mark was recorded (absent in marks kept before it was). */
  read_at: z.string().optional(),
});
export type ImportMark = z.infer<typeof ImportMark>;

/** How a workflow was rebuilt from a damaged run folder: what its state came from and which events were lost. */
export const RecoveredWithGaps = z.object({
  /** The artifact the state was rebuilt from (`checkpoints/cp-02-api.json`, `snapshots/3.json`, ...). */
  source: z.string(),
  /** The seqs whose events are not in the log (inclusive ranges). */
  lost: z.array(z.object({ from: z.number().int().positive(), to: z.number().int().positive() })),
  /** The seq of the `workflow.restored` event. */
  seq: z.number().int().positive(),
  restored_at: z.string(),
});
export type RecoveredWithGaps = z.infer<typeof RecoveredWithGaps>;

/**
 * The folded state of one workflow: what every event so far implies. Bounded in size whatever the history's
 * length, so that loading it, deciding and storing it stay flat as a workflow grows.
 */
export const WorkflowState = z.object({
  schema_version: z.literal(1),
  id: z.string(),
  version: z.number().int().nonnegative(),
  title: z.string(),
  issue: Issue.nullable(),
  worktree: z.string(),
  plan: z.string(),
  status: WorkflowStatus,
  pause_requested: z.boolean(),
  pause_request: PauseRequest.nullable(),
  paused_at: z.string().nullable(),
  pause_reason: z.string().nullable(),
  pause_trigger: SnapshotTrigger.nullable(),
  /** `agent`: the pause in force was the agent's own (`request_pause`), not its user's; absent otherwise. */
  pause_asked_by: z.literal('agent').optional(),
  /** The latest pause, resume or abandon asked by someone other than the owner, told to the owner (`teammateActText`). */
  teammate_act: TeammateAct.nullable().optional(),
  interrupted_at: z.string().nullable(),
  interrupt_reason: z.string().nullable(),
  session_count: z.number().int().nonnegative(),
  /** The recent sessions, oldest first, the current one last (all of them are `session` records). */
  sessions: z.array(SessionInfo),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  git_start: GitStart.nullable(),
  tasks: z.array(Task),
  counts: z.object({
    decisions: z.number().int().nonnegative(),
    errors: z.number().int().nonnegative(),
    history: z.number().int().nonnegative(),
    feedback: z.number().int().nonnegative(),
    test_runs: z.number().int().nonnegative(),
    usage: z.number().int().nonnegative(),
    snapshots: z.number().int().nonnegative(),
    /** Every checkpoint ever taken (the state keeps the recent ones; all are `checkpoint` records). */
    checkpoints: z.number().int().nonnegative().optional(),
    /** Every error still unresolved (the state keeps the newest OPEN_ERRORS_LIMIT; all are `error` records). */
    open_errors: z.number().int().nonnegative().optional(),
    /** Every request of the user recorded (the state keeps the recent ones; all are `request` records). */
    requests: z.number().int().nonnegative().optional(),
  }),
  recent_decisions: z.array(Decision),
  open_errors: z.array(ErrorRecord),
  recent_resolved_errors: z.array(ErrorRecord),
  recent_history: z.array(HistoryEntry),
  open_feedback: z.array(ReviewerFeedback),
  test_state: TestState.nullable(),
  /** The newest CI report the agent read (`ci.reported`), beside the local test runs. */
  ci_state: CiState.nullable().optional(),
  /** The current session's usage: totals of its readings, and the current context size (a gauge). */
  usage: UsageMetrics,
  /** The whole workflow's usage, summed over every session's readings. */
  usage_total: UsageTotals.optional(),
  /** The latest reading of each recent source, so its next reading adds only what is new (see fold/usage.ts). */
  usage_sources: z.record(z.string(), UsageTotals.omit({ readings: true })).optional(),
  /** What Baton knew when it noticed the workflow stopped (startup recovery, heartbeats, a dead driver's lease). */
  interruption: InterruptRecovery.nullable().optional(),
  /** The recent checkpoints, oldest first (all of them are `checkpoint` records; the total is `counts.checkpoints`). */
  checkpoints: z.array(CheckpointRef),
  last_snapshot: z
    .object({
      id: z.string(),
      trigger: SnapshotTrigger,
      seq: z.number().int(),
      created_at: z.string(),
      session_number: z.number().int(),
      /**
       * The branch the workflow's work is on as of it: the branch it saw, unless that one did not hold the work seen
       * before (its `branch_changed`: a checkout of other work) or was a detached HEAD, when it is the branch before
       * (absent in states from before it was kept; null without git).
       */
      branch: z.string().nullable().optional(),
      /** HEAD as it saw it on that branch (absent in states from before it was kept; null without git or commits). */
      commit: z.string().nullable().optional(),
      /** When the work was last seen on that branch (absent: at `created_at`). */
      branch_seen_at: z.string().optional(),
    })
    .nullable(),
  warnings: z.array(z.string()),
  /**
   * The transcripts imported most recently (the last RECENT_LIMIT, oldest first), by `transcriptKey` (the agent session
   * that wrote it, the file's name): the last line and byte read, so re-imports only add what is new. Every
   * transcript's marker is an `import` record.
   */
  imports: z.record(z.string(), ImportMark),
  /**
   * The latest summary of each kind (compaction summary, the agent's last message, the usage limit a turn ended on,
   * the user's interruption of a turn); all are `summary` records.
   */
  summaries: z
    .object({
      compaction: Summary.nullable(),
      last_message: Summary.nullable(),
      usage_limit: Summary.nullable().optional(),
      api_error: Summary.nullable().optional(),
      interrupted: Summary.nullable().optional(),
    })
    .optional(),
  /** The verified handoff: the last context handed to a session, and whether the session confirmed loading it. */
  handoff: z
    .object({
      snapshot_id: z.string(),
      context_hash: z.string(),
      tokens: z.number().int(),
      session_number: z.number().int(),
      delivered_at: z.string(),
      delivered_via: z.string(),
      acknowledged_at: z.string().nullable(),
      acknowledged_hash: z.string().nullable(),
      acknowledged_via: z.string().nullable(),
    })
    .nullable(),
  /** The agent runtime (`baton run`): the driver session, its resume token, capacity and usage-limit state. */
  agent: AgentRuntime.nullable().optional(),
  /** The user's recent requests (all of them are `request` records), oldest first. */
  recent_requests: z.array(UserRequest).optional(),
  /**
   * Requests older than `recent_requests` that limit what the agent may do ("never push to main", "don't touch the
   * schema"): they stay in force, so the newest RECENT_LIMIT of them are kept when the recent ones move on. Oldest first.
   */
  standing_requests: z.array(UserRequest).optional(),
  /** The keys (normalised text) of the last REQUEST_KEYS_KEPT requests, so the same words are not recorded twice. */
  request_keys: z.array(z.string()).optional(),
  /** Created by an agent's hook (auto_track) rather than `baton create`. */
  auto_tracked: z.boolean().optional(),
  /** The completed workflow of the same conversation this one went on from (`workflow.created`'s). */
  earlier: EarlierWorkflow.optional(),
  /** Whose work it is: the git identity (`user.email`) of its worktree when it was made; absent: anyone's there. */
  owner: z.string().optional(),
  /** The agent compacted its context since the last context a hook handed over: the next prompt or start injects. */
  reinject: z.boolean().optional(),
  /**
   * A compaction under way (PreCompact's snapshot, trigger `exhaustion`, came; its PostCompact has not): whether a hook
   * handed the context over since (the compacted session's start, which may come before PostCompact or after it).
   * Absent when none is under way.
   */
  handed_since_compacting: z.boolean().optional(),
  /**
   * The agent's last compaction (PreCompact's snapshot, or PostCompact), with the context fill known then: while the
   * fill is still that figure, no reading since has said the compacted context's, and it is stale.
   */
  context_compacted: z.object({ at: z.string(), context_tokens: z.number().nullable() }).optional(),
  /**
   * The last end of an agent's turn a hook reported (`turn.ended`), with how many requests had been recorded then: a
   * request recorded since is one whose turn has not been seen to end.
   */
  turn_ended: z
    .object({
      at: z.string(),
      session_number: z.number().int().nullable(),
      requests: z.number().int().nonnegative(),
      /** Its event (what came after it is what happened since), and where git stood then (absent: not read). */
      seq: z.number().int().nonnegative().optional(),
      git: GitMark.optional(),
    })
    .optional(),
  /** The last event that was work (a task added or moved, a side effect): checkpoints wait for work after them. */
  work_seq: z.number().int().nonnegative().optional(),
  /**
   * The last event that was not the handing over of a context (`context.delivered`, `context.acknowledged`): the live
   * briefing is named after it, so reading the briefing does not change its name (absent: stored before; `version`).
   */
  content_seq: z.number().int().nonnegative().optional(),
  /** Each agent's own task list (TodoWrite, task tools, update_plan) as last synced, by source. */
  agent_tasks: z.record(z.string(), AgentTaskList).optional(),
  /** The side-effect ledger's recent entries (all of them are `side_effect` records). */
  side_effects: z.array(SideEffect).optional(),
  /** Set when the workflow was rebuilt from a run folder whose log had lost events ("recovered with gaps"). */
  recovered_with_gaps: RecoveredWithGaps.nullable().optional(),
});
export type WorkflowState = z.infer<typeof WorkflowState>;
