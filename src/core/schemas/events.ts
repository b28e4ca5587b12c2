import { z } from 'zod';
import { GitMark, GitStart } from './git-state.js';
import {
  Decision,
  ErrorRecord,
  ErrorResolution,
  HistoryEntry,
  ReviewerFeedback,
  Summary,
  TestState,
  CiState,
  UsageMetrics,
  UserRequest,
} from './records.js';
import { AgentOutcome, CapacityThresholds, CutShort, ExecutorChoice, SideEffect } from './runtime.js';
import { AgentTaskItem, AgentTaskSource } from './agent-tasks.js';
import { SessionSnapshot } from './snapshot.js';
import { InterruptRecovery } from './interrupt-recovery.js';
import { recordKinds } from '../records.js';
import { RecordedIn, RecoveredWithGaps, WorkflowState } from './state.js';
import {
  AgentSessionRef,
  CheckpointRef,
  EarlierWorkflow,
  Issue,
  SnapshotTrigger,
  TaskSpec,
  TaskStatus,
} from './workflow.js';

/**
 * Every fact Baton records is one of these events, named `noun.past_tense_verb` everywhere (database, JSONL,
 * WebSocket). `seq` numbers a workflow's events 1, 2, 3... without gaps.
 */
export const EVENT_SCHEMA_VERSION = 1;

const Envelope = z.object({
  v: z.literal(EVENT_SCHEMA_VERSION),
  workflow_id: z.string(),
  seq: z.number().int().positive(),
  at: z.string(),
  /** Who caused it: `user`, `orchestrator`, `session-<n>`, `executor-<id>`. */
  actor: z.string(),
  session_number: z.number().int().positive().nullable(),
  task_id: z.string().nullable(),
});

const ev = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  Envelope.extend({ type: z.literal(type), data });

const reason = z.object({ reason: z.string().nullable() });
const empty = z.object({});
/** When the agent did it, where that is known and not when it was recorded (a transcript's time, read later). */
const agentAt = { at: z.string().optional() };

/**
 * Built on first use: only a reader of a run folder's event log (disk/event-log-reader.ts) parses events, and the
 * union of every event's schema took a noticeable part of loading the service in each command and hook that never
 * does (every `baton hook Stop`).
 */
export const BatonEvent = z.lazy(() => eventSchema());

const eventSchema = () =>
  z.discriminatedUnion('type', [
    ev(
      'workflow.created',
      z.object({
        title: z.string(),
        issue: Issue.nullable(),
        worktree: z.string(),
        plan: z.string(),
        tasks: z.array(TaskSpec),
        git_start: GitStart.nullable(),
        /** Created by an agent's hook or a transcript import rather than `baton create`: its title follows the first request. */
        auto_tracked: z.boolean().optional(),
        /** Created for a conversation resumed after its workflow was completed: that workflow. */
        earlier: EarlierWorkflow.optional(),
        /** The git identity (`user.email`) of the worktree it was made in: whose work it is (workflows-here.ts). */
        owner: z.string().optional(),
      }),
    ),
    ev('workflow.started', empty),
    ev(
      'workflow.pause_requested',
      z.object({
        reason: z.string().nullable(),
        trigger: SnapshotTrigger,
        /** The timeout the request was made with (`--pause-timeout` then); older requests use the reader's. */
        timeout_ms: z.number().int().positive().optional(),
        /** It waits for the end of the agent's turn under way, not for a task boundary. */
        until: z.literal('turn_end').optional(),
        /** The git email of the person whose command asked it (a CLI's, or a server's per request); unset: no person. */
        by: z.string().optional(),
        /** Whether that person is the workflow's owner, judged when the command ran (`Asker`); unset: compare emails. */
        by_owner: z.boolean().optional(),
        /** `agent`: the agent asked it itself (the MCP tool `request_pause`); unset: a person or Baton asked it. */
        asked_by: z.literal('agent').optional(),
      }),
    ),
    /**
     * A requested pause that waited for a task boundary waits for the end of the agent's turn under way instead: that
     * boundary finished every task, and the agent is let say what it did (commands/pause.ts `honourRequestedPause`).
     */
    ev('workflow.pause_deferred', z.object({ until: z.literal('turn_end') })),
    /** A pause requested and still waiting was withdrawn (`baton resume` before it took effect): the reason it had. */
    ev(
      'workflow.pause_withdrawn',
      z.object({
        reason: z.string().nullable(),
        requested_at: z.string(),
        /** The git email of the person whose resume withdrew it (as `workflow.resumed`'s); unset: no person. */
        by: z.string().optional(),
        by_owner: z.boolean().optional(),
      }),
    ),
    ev(
      'workflow.paused',
      z.object({
        reason: z.string().nullable(),
        trigger: SnapshotTrigger,
        forced: z.boolean(),
        snapshot_id: z.string(),
        warning: z.string().nullable(),
        /** The git email of the person whose command asked it (a CLI's, or a server's per request); unset: no person. */
        by: z.string().optional(),
        /** Whether that person is the workflow's owner, judged when the command ran (`Asker`); unset: compare emails. */
        by_owner: z.boolean().optional(),
        /** `agent`: the agent asked it itself (the MCP tool `request_pause`); unset: a person or Baton asked it. */
        asked_by: z.literal('agent').optional(),
      }),
    ),
    ev(
      'workflow.resumed',
      z.object({
        from_snapshot_id: z.string().nullable(),
        warnings: z.array(z.string()),
        /** The git email of the person whose command asked it (a CLI's, or a server's per request); unset: no person. */
        by: z.string().optional(),
        /** Whether that person is the workflow's owner, judged when the command ran (`Asker`); unset: compare emails. */
        by_owner: z.boolean().optional(),
      }),
    ),
    ev(
      'workflow.interrupted',
      z.object({
        reason: z.string(),
        snapshot_id: z.string().nullable(),
        /** The Go Team recovery metadata, when Baton itself noticed the stop (startup recovery, heartbeats). */
        recovery: InterruptRecovery.optional(),
      }),
    ),
    ev('workflow.blocked', reason),
    ev('workflow.unblocked', empty),
    /** `reason`: why a workflow that hooks follow was completed without a task command (commands/finished-work.ts). */
    ev('workflow.completed', z.object({ reason: z.string().optional() })),
    ev('workflow.failed', reason),
    ev(
      'workflow.cancelled',
      /** `by`, `by_owner`: the person whose command abandoned it (as `workflow.paused`'s). */
      z.object({
        reason: z.string().nullable(),
        by: z.string().optional(),
        by_owner: z.boolean().optional(),
      }),
    ),
    /**
     * The workflow goes on in another worktree of its repository: its own was removed (`git worktree remove`) and its
     * branch is checked out there (`from` and `to` are real paths). Its later commands, records and run folder are that
     * worktree's.
     */
    ev('workflow.moved', z.object({ from: z.string(), to: z.string(), reason: z.string() })),
    ev(
      'workflow.recovered',
      z.object({
        option: z.enum(['checkpoint', 'live_state', 'fresh']),
        checkpoint: z.string().nullable(),
        task_statuses: z.record(z.string(), TaskStatus),
      }),
    ),
    /**
     * A run rebuilt from its folder when part of its log was lost (`baton rebuild --from-disk`): it stands for every
     * event up to its own seq, whose state it carries as reconstructed from the newest intact checkpoint or snapshot
     * (or the run's JSON documents); `lost` names the seqs whose events are not in the log.
     */
    ev(
      'workflow.restored',
      z.object({
        state: WorkflowState,
        records: z.array(
          z.object({
            kind: z.enum(recordKinds),
            id: z.string(),
            seq: z.number().int().nonnegative(),
            task_id: z.string().nullable(),
            session_number: z.number().int().nullable(),
            created_at: z.string(),
            data: z.unknown(),
          }),
        ),
        source: RecoveredWithGaps.shape.source,
        lost: RecoveredWithGaps.shape.lost,
      }),
    ),
    ev(
      'session.started',
      z.object({ origin: z.enum(['create', 'resume', 'recover']), agent: AgentSessionRef.optional() }),
    ),
    /** The open session is tied to the agent session a hook reported. */
    ev('session.linked', z.object({ agent: AgentSessionRef })),
    /**
     * The agent compacted its context. Claude Code's PostCompact brings the summary it wrote (kept as a history
     * entry beside this event); Codex's brings none. The next prompt or session start injects the context, unless a hook
     * handed it over since the snapshot before the compaction (`injected`).
     */
    ev(
      'context.compacted',
      z.object({
        agent: z.string(),
        trigger: z.string().nullable(),
        summary: z.string().nullable(),
        /** The compacted session already got the context (its compact start came before this note). */
        injected: z.boolean().optional(),
      }),
    ),
    ev('session.ended', z.object({ reason: z.string(), snapshot_id: z.string().nullable() })),
    /**
     * The agent's turn ended (its Stop hook, a StopFailure, its SessionEnd): the requests recorded so far were taken up
     * in a turn that is over, whether or not its last response had words. Written once per turn.
     */
    ev(
      'turn.ended',
      z.object({
        agent: z.string(),
        /** Where git stood when it ended (absent: not read): a conversation reopened finds whether it moved since. */
        git: GitMark.optional(),
      }),
    ),
    ev(
      'task.added',
      z.object({
        task: TaskSpec,
        /** The task it is placed after in the plan's order (null: at the end). */
        after: z.string().nullable(),
        /** Who added it: `user` (baton task add, REST, MCP), or the agent whose own list it came from. */
        origin: z.string(),
        /** When the agent made the list call that added it (a transcript's time, read later); absent: the event's. */
        at: z.string().optional(),
      }),
    ),
    ev(
      'agent_tasks.synced',
      z.object({
        source: AgentTaskSource,
        /** The agent's list after the sync, each item with the Baton task it maps to. */
        items: z.array(AgentTaskItem),
        /** The ids of the tool calls this sync applied (a call seen again later is not applied twice). */
        applied_calls: z.array(z.string()),
        /** The time of the newest call applied so far, when one had a time. */
        synced_at: z.string().optional(),
      }),
    ),
    /**
     * An agent's new list left this open task out (`by`), and the agents told so (`told`: those told before stay told):
     * a task no later list takes up does not hold finished work open for good (`leftBehind`).
     */
    ev('task.left_out', z.object({ by: AgentTaskSource, told: z.array(AgentTaskSource) })),
    /** The task's new title: the agent reworded the item of its list that the task came from. */
    ev('task.retitled', z.object({ title: z.string(), origin: z.string() })),
    /** Tasks this one now waits for (the agent linked its list's items after adding them: TaskUpdate addBlockedBy). */
    ev('task.deps_added', z.object({ deps: z.array(z.string()), origin: z.string() })),
    ev('task.started', z.object(agentAt)),
    ev('task.completed', z.object({ summary: z.string().nullable(), ...agentAt })),
    ev('task.failed', reason),
    ev('task.blocked', reason),
    ev('task.unblocked', empty),
    ev('task.skipped', reason.extend(agentAt)),
    ev('decision.recorded', z.object({ decision: Decision })),
    ev('error.recorded', z.object({ error: ErrorRecord })),
    ev(
      'error.resolved',
      z.object({
        error_id: z.string(),
        resolution: ErrorResolution,
        resolution_notes: z.string().nullable(),
        /** The error as it was (from its record when the state no longer holds it: an old open error). */
        error: ErrorRecord.optional(),
      }),
    ),
    ev('history.recorded', z.object({ entry: HistoryEntry })),
    ev('request.recorded', z.object({ request: UserRequest, key: z.string() })),
    ev('feedback.recorded', z.object({ feedback: ReviewerFeedback })),
    ev('feedback.addressed', z.object({ review_id: z.string() })),
    ev('test_run.recorded', z.object({ test_state: TestState })),
    /** A CI report the agent read: not a test run (the test state and its count stay), its own fact (`ci_state`). */
    ev('ci.reported', z.object({ ci: CiState })),
    ev('summary.recorded', z.object({ summary: Summary })),
    ev(
      'usage.recorded',
      z.object({
        usage: UsageMetrics,
        /** Whose running totals the reading is (an agent run, a transcript); default: the Baton session. */
        source: z.string().optional(),
      }),
    ),
    ev('snapshot.taken', z.object({ snapshot: SessionSnapshot })),
    ev('checkpoint.created', z.object({ checkpoint: CheckpointRef })),
    ev(
      'context.delivered',
      z.object({
        snapshot_id: z.string(),
        context_hash: z.string(),
        tokens: z.number().int().nonnegative(),
        via: z.enum(['resume', 'hook', 'mcp', 'cli', 'runner']),
      }),
    ),
    ev(
      'context.acknowledged',
      z.object({ context_hash: z.string(), via: z.enum(['hook', 'mcp', 'cli', 'runner']) }),
    ),
    ev(
      'transcript.imported',
      z.object({
        format: z.string(),
        transcript_session_id: z.string(),
        path: z.string().nullable(),
        through_line: z.number().int().nonnegative(),
        records: z.number().int().nonnegative(),
        /** Bytes read so far: the next import reads on from here. */
        through_byte: z.number().int().nonnegative().optional(),
        /** What the parser needs to continue (usage so far, open tool calls...): small JSON. */
        parser_state: z.unknown().optional(),
        /** Where the transcript says the agent worked (its folder, its branch). */
        recorded_in: RecordedIn.optional(),
        /** The extractor that produced the decisions and errors, and why it is not the one asked for. */
        extractor: z.string().optional(),
        fallback_reason: z.string().nullable().optional(),
      }),
    ),
    ev(
      'agent.launched',
      z.object({
        agent: z.string(),
        executor_id: z.string(),
        resume_token: z.string().nullable(),
        fallback: z.string().nullable(),
        capacity: CapacityThresholds.optional(),
        /** The program started, when the run was given one (--agent-bin, its variable or config), not its profile's. */
        bin: z.string().optional(),
        /** The executor the run was given, when not the local one. */
        executor: ExecutorChoice.optional(),
      }),
    ),
    ev('agent.token_saved', z.object({ executor_id: z.string(), resume_token: z.string() })),
    ev(
      'agent.exited',
      z.object({
        executor_id: z.string(),
        outcome: AgentOutcome,
        exit_code: z.number().int().nullable(),
        message: z.string().nullable(),
        /** The run ended short of its task with the agent's session whole (`CutShort`); absent otherwise. */
        cut_short: CutShort.optional(),
      }),
    ),
    ev(
      'capacity.warned',
      z.object({
        utilization: z.number().min(0),
        threshold: z.number().min(0).max(1),
        tokens: z.number().int().nonnegative(),
        context_window: z.number().int().positive(),
        estimated: z.boolean(),
      }),
    ),
    ev(
      'usage_limit.reached',
      z.object({
        message: z.string(),
        resets_at: z.string().nullable(),
        auto_resume_at: z.string().nullable(),
      }),
    ),
    ev('side_effect.recorded', z.object({ effect: SideEffect })),
    ev(
      'executor.changed',
      z.object({
        executor_id: z.string(),
        status: z.enum(['starting', 'ready', 'error', 'stopped']),
        session_state: z.enum(['running', 'waiting_for_input', 'error', 'ended']),
        reason: z.string().nullable(),
      }),
    ),
  ]);
export type BatonEvent = z.infer<typeof BatonEvent>;
export type EventType = BatonEvent['type'];
export type EventOf<T extends EventType> = Extract<BatonEvent, { type: T }>;

/** An event as a command decides it: everything but the envelope fields the service fills in. */
export type NewEvent = {
  [T in EventType]: { type: T; data: EventOf<T>['data']; task_id?: string | null };
}[EventType];
