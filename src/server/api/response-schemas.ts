import { z } from '@hono/zod-openapi';
import {
  CapacityThresholds,
  CheckpointRef,
  EarlierWorkflow,
  Decision,
  ErrorRecord,
  GitState,
  Issue,
  PauseRequest,
  TeammateAct,
  RecoveredWithGaps,
  ReviewerFeedback,
  SessionSnapshot,
  SideEffect,
  SnapshotSummary,
  Task,
  TaskStatus,
  TestState,
  UsageMetrics,
  WorkflowState,
  WorkflowStatus,
} from '../../core/index.js';

/** The documented shapes of the responses (the OpenAPI document's components; tests parse responses with them). */

/**
 * An error as shown: its record, and when it is the API failing under the agent (an `agent_error` of an overloaded or
 * failing API, a dropped connection, an aborted request, a limit's notice), what that is now: `cut_off`, the stop of
 * the last turn (nothing said or asked since), or `over`. Either way no open error of the work.
 */
export const ErrorShown = z
  .object({ ...ErrorRecord.shape, api_failure: z.enum(['cut_off', 'over']).optional() })
  .openapi('ErrorShown');

export const ErrorResponse = z
  .object({
    error: z
      .object({
        code: z.string().openapi({ example: 'invalid_transition' }),
        message: z.string(),
        issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      })
      .catchall(z.unknown()),
  })
  .openapi('Error');

const TaskCounts = z.record(z.string(), z.number().int());

export const WorkflowView = z
  .object({
    id: z.string(),
    title: z.string(),
    issue: Issue.nullable(),
    worktree: z.string(),
    /** Whose work it is (git's `user.email` in its worktree when it was made); null: not known. */
    owner: z.string().nullable(),
    /** The branch its work was last seen on (its last snapshot's, else its start's); null: not known, or detached. */
    branch: z.string().nullable(),
    status: WorkflowStatus,
    plan: z.string(),
    pause_requested: z.boolean(),
    paused_at: z.string().nullable(),
    pause_reason: z.string().nullable(),
    /** `agent`: the pause in force is the agent's own (`request_pause`), not its user's; null otherwise. */
    pause_asked_by: z.literal('agent').nullable(),
    /** The latest pause, resume or abandon asked by someone other than its owner: the act, who (a git email), when. */
    teammate_act: TeammateAct.nullable(),
    session_count: z.number().int(),
    /** How it goes on: `resume` (paused or interrupted), `next_session` (at rest: the agent's next session goes on). */
    resume_by: z.enum(['resume', 'next_session']).nullable(),
    /** Why the next new agent conversation in its worktree completes it (its work is over); null: not. */
    completes_at_next_start: z.string().nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    tasks: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: TaskStatus,
        deps: z.array(z.string()),
        lane: z.number().int(),
      }),
    ),
    counts: TaskCounts,
    next_task: z.object({ id: z.string(), title: z.string() }).nullable(),
    /** The agents' sessions its hooks followed (their session ids). */
    agent_sessions: z.array(z.string()),
    /** The transcript files it imported lately (their paths). */
    transcripts: z.array(z.string()),
    /** Nothing in it: no issue, task, request or record (a conversation opened and left). */
    empty: z.boolean(),
  })
  .openapi('Workflow');

export const WorkflowList = z.object({ workflows: z.array(WorkflowView) }).openapi('WorkflowList');

// Core schemas are made before zod is extended with `.openapi`, so they are re-wrapped here to be named components.
export const SnapshotSummarySchema = z.object(SnapshotSummary.shape).openapi('SnapshotSummary');
// a snapshot's errors as `details` serves them: each API failure named (`api_failure`) as of the snapshot
export const SnapshotSchema = z
  .object({ ...SessionSnapshot.shape, errors: z.array(ErrorShown) })
  .openapi('SessionSnapshot');
export const SnapshotList = z
  .object({ workflow_id: z.string(), snapshots: z.array(SnapshotSummarySchema) })
  .openapi('SnapshotList');

/** What goes on with an in-progress workflow nothing runs now: the command to run (null: a worker will), and why. */
const NextStepSchema = z.object({ command: z.string().nullable(), reason: z.string() }).openapi('NextStep');

/** Queued work and the workers: running, waiting for a worker that can take it, or stuck with none that can. */
const QueueStandingSchema = z
  .object({
    state: z.enum(['running', 'waiting']),
    priority: z.number().int(),
    takers: z.number().int(),
    stuck: z.object({ reason: z.string(), command: z.string() }).nullable(),
  })
  .openapi('QueueStanding');

/** A transcript of the workflow that holds more than Baton read of it, while no agent at work will read it. */
export const UnreadTranscript = z
  .object({
    path: z.string(),
    agent: z.enum(['claude-code', 'codex']),
    workflow_id: z.string(),
    read_through: z.number().int(),
    size: z.number().int(),
    grown_bytes: z.number().int(),
    written_at: z.string(),
    why: z.string().openapi({ description: 'why no agent will read it soon, in words' }),
    command: z.string().openapi({ description: 'the command that reads it now (`baton import -w ...`)' }),
  })
  .openapi('UnreadTranscript');

/** A transcript of the workflow whose work Baton could not read (core/not-read.ts `NotRead`): gone before it was read. */
export const NotReadTranscript = z
  .object({
    path: z.string(),
    why: z.string().openapi({ description: 'why it was not read, and what the briefing lacks, in words' }),
    command: z.string().openapi({ description: 'the command that reads it once what stopped it is fixed' }),
  })
  .openapi('NotReadTranscript');

/** An agent the hooks saw running the workflow whose process exited though no SessionEnd came. */
export const GoneAgent = z
  .object({
    agent: z.enum(['claude-code', 'codex']),
    pid: z.number().int(),
    transcript: z.string(),
    turn_ended: z.boolean(),
    /** Cut off in the middle of its turn: the workflow's turn under way is its own (no Stop came after the last prompt). */
    cut_off: z.boolean(),
    /** The agent as people are told of it: "Claude Code, session 3" (the Baton session that followed it, if known). */
    name: z.string(),
  })
  .openapi('GoneAgent');

/** How far one transcript was read, as a status says it: the parser's carry-over is the importer's (ImportList). */
const importFields = {
  format: z.string(),
  path: z.string().nullable(),
  through_line: z.number().int(),
  through_byte: z.number().int().optional(),
  /** Where the transcript says its agent worked: its folder and the branch checked out there (the latest). */
  recorded_in: z.object({ cwd: z.string().nullable(), branch: z.string().nullable() }).optional(),
  /** When the import that read this far was recorded. */
  read_at: z.string().optional(),
};
export const ImportSummary = z.strictObject(importFields).openapi('ImportSummary');

/** The worktree's other incomplete workflows, beside the one `current` took for its conversation being at work last. */
export const AlsoOpenList = z
  .array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: WorkflowStatus,
      follows: z.object({ name: z.string(), session_id: z.string() }).nullable(),
      last_active_at: z.string().nullable(),
    }),
  )
  .optional()
  .openapi({
    description:
      '`current` taken among several incomplete workflows of the worktree for its agent conversation being at work last (each follows one): the others, with the conversation each follows and when it was last at work; absent when the workflow was named or was the one there',
  });

// strict: a field the status returns is documented here (the response check fails a test that meets one that is not)
/**
 * The git identity of the person the server serves (where `baton serve` runs), to tell their workflows from a
 * teammate's on a database a team shares; null: none is set there; absent: the server cannot tell.
 */
const You = z.string().nullable().optional().openapi({
  description:
    "the git identity of the person the server serves (where `baton serve` runs: GIT_AUTHOR_EMAIL, else `user.email`), to tell their workflows from a teammate's (`owner`) on a database a team shares; null: none is set there; absent: the server cannot tell",
});

export const Status = z
  .strictObject({
    workflow: z
      .object({
        id: z.string(),
        title: z.string(),
        status: WorkflowStatus,
        worktree: z.string(),
        /** The git identity it was made under (whose it is on a shared database); null: anyone's. */
        owner: z.string().nullable(),
        version: z.number().int(),
        pause_requested: z.boolean(),
        pause_request: PauseRequest.nullable(),
        pause_overdue: z.boolean(),
        paused_at: z.string().nullable(),
        pause_reason: z.string().nullable(),
        /** The latest pause, resume or abandon asked by someone other than its owner (`teammateActText`). */
        teammate_act: TeammateAct.nullable(),
        interrupted_at: z.string().nullable(),
        interrupt_reason: z.string().nullable(),
        session_count: z.number().int(),
        issue: Issue.nullable(),
        created_at: z.string(),
        updated_at: z.string(),
        /** The workflow it went on from (its conversation's completed or abandoned one, or the worktree's last). */
        earlier: z.object(EarlierWorkflow.shape).optional(),
      })
      .catchall(z.unknown()),
    counts: z
      .object({
        tasks: TaskCounts,
        /** Totals: the state and this response list only the recent sessions, checkpoints and open errors. */
        sessions: z.number().int(),
        checkpoints: z.number().int(),
        open_errors: z.number().int(),
        /** How many of the open errors are the API failing under the agent (`api_failure`), no errors of the work. */
        open_api_failures: z.number().int().optional(),
      })
      .catchall(z.unknown()),
    tasks: z.array(Task),
    /** A finished workflow's tasks not done (none of them under way any more); empty while the workflow is open. */
    left_open: z.array(z.object({ id: z.string(), title: z.string(), status: TaskStatus })),
    /**
     * Tasks left in progress that the agent's last message says are over (`said`: its line that says so): probably
     * done, as the briefing says them, for the next session to check; empty for a finished workflow.
     */
    probably_done: z.array(z.object({ id: z.string(), title: z.string(), said: z.string() })),
    /** The agent session each recent Baton session follows, when a hook tied them: who each session's agent was. */
    agent_sessions: z.array(
      z.object({ session_number: z.number().int(), agent: z.string(), session_id: z.string() }),
    ),
    /**
     * The open tasks left from an earlier plan when nothing else is open: a later list moved on without them, its agent
     * told of them; they hold no work open, and are to check whether still needed.
     */
    left_behind: z.array(z.object({ id: z.string(), title: z.string(), status: TaskStatus })),
    next_task: z.object({ id: z.string(), title: z.string(), status: TaskStatus }).nullable(),
    runnable_tasks: z.array(z.object({ id: z.string(), title: z.string() })),
    snapshots: z.array(SnapshotSummarySchema),
    /** The recent checkpoints (GET /api/workflows/{id}/checkpoints lists every one). */
    checkpoints: z.array(CheckpointRef),
    /** Summed over every session; the context fields are the current session's gauge. */
    usage: UsageMetrics,
    session_usage: UsageMetrics,
    context: z
      .object({
        tokens: z.number().int(),
        window: z.number().int(),
        utilization: z.number(),
        remaining: z.number().int(),
      })
      .nullable(),
    /** The capacity policy of the driver that last launched an agent (`--warn-at`, `--pause-at`); null without one. */
    capacity_policy: CapacityThresholds.nullable(),
    usage_by_session: z.array(
      z.object({ session_number: z.number().int(), usage: z.record(z.string(), z.number()).nullable() }),
    ),
    driver: z
      .object({
        command: z.string(),
        kind: z.string(),
        host: z.string(),
        pid: z.number().int(),
        acquired_at: z.string(),
        heartbeat_at: z.string(),
        expires_at: z.string(),
        expired: z.boolean(),
        liveness: z.enum(['alive', 'dead', 'unknown']),
      })
      .nullable(),
    next_step: NextStepSchema.nullable().openapi({
      description:
        "an in-progress workflow that Baton's own driver runs and none holds now: the command that goes on with it (null: the workers' queue does)",
    }),
    queue: QueueStandingSchema.nullable().openapi({
      description:
        'queued for the workers (`baton submit`): whether a worker runs it, how many running workers can take it, and when none can, why and the `baton worker` that would (`stuck`); null when not queued',
    }),
    test_state: TestState.nullable(),
    /** The newest open errors (at most 20); `counts.open_errors` is how many are open in all. */
    open_errors: z.array(ErrorShown),
    recent_decisions: z.array(Decision),
    /** The errors resolved most recently (a failure followed by a fix, a retry that passed, a workaround). */
    recent_resolved_errors: z.array(ErrorRecord),
    /** The side-effect ledger's recent entries: commits, pushes, pull requests, files written ("already done"). */
    side_effects: z.array(SideEffect),
    /** The latest summary of each kind: the compaction summary, the agent's last message, a usage limit's, ... */
    summaries: WorkflowState.shape.summaries.unwrap(),
    imports: z.record(z.string(), ImportSummary).openapi({
      description:
        "the transcripts imported most recently (at most 10), by the agent's session id: how far each was read (every one, with the parsers' carry-over: GET /api/workflows/{id}/imports)",
    }),
    live_state: z.object({ saved_at: z.string(), trigger: z.string() }).nullable(),
    /** The last context handed to a session, and whether the session confirmed loading it (the latest one). */
    handoff: WorkflowState.shape.handoff
      .unwrap()
      .extend({
        latest_snapshot_id: z.string().nullable(),
        acknowledged: z.boolean(),
        loaded_latest: z.boolean(),
      })
      .nullable(),
    /** Set when the workflow was rebuilt from a run folder whose log had lost events; `warnings` says it in words. */
    recovered_with_gaps: RecoveredWithGaps.nullable(),
    /** The agent's last turn was stopped by a usage limit it has not spoken since: when it lifts, in words. */
    usage_limit: z.string().nullable(),
    /**
     * The agent's last turn ended on an API error it has not spoken since (an overloaded or failing API, a dropped
     * connection, a full context), and what to do about it, in words: the open errors do not count it.
     */
    api_error: z.string().nullable().optional(),
    /** When the agent compacted its context, while no reading since has told the fill: the last one known is stale. */
    context_compacted_at: z.string().nullable(),
    /** Why a new conversation would complete it, were its last agent gone with no SessionEnd; null: it goes on. */
    work_over: z.string().nullable(),
    /** The agent's turn on the user's last request has not ended, as far as the hooks saw (its agent gone: cut off). */
    turn_under_way: z.boolean(),
    /**
     * What a pause waits for (the pending request's, else what one asked now would): the tasks in progress (their
     * boundary), the agent's turn under way (its end), or both, whichever comes first; null when it takes effect at
     * once, or when the workflow cannot be paused.
     */
    pause_waits_for: z
      .object({
        tasks: z.array(z.string()),
        turn: z.object({ session_number: z.number().int(), agent: z.string() }).nullable(),
      })
      .nullable(),
    /** The agent whose hooks follow it (its name), null when none: a Resume starts no agent, its next session goes on. */
    following_agent: z.string().nullable(),
    /** Whether that agent's conversation is still open (its next prompt goes on in it); null: not known. */
    conversation_open: z.boolean().nullable(),
    /** Why the next new agent conversation here completes it as it stands (its session ended, or idle); null: not. */
    completes_at_next_start: z.string().nullable(),
    /** What is done when only its agent's open conversation keeps the work from being over (a quit or /clear ends it). */
    done_while_open: z.string().nullable(),
    /** What alone keeps it from being over: its open errors (it would be, were they resolved); null: nothing alone. */
    not_over: z.string().nullable(),
    warnings: z.array(z.string()),
    /** What the hooks of the server's machine saw: the agents gone without a SessionEnd (an in-progress workflow). */
    gone_agents: z.array(GoneAgent),
    /** The transcripts that grew since Baton last read them, with no agent at work to read them (`baton status`). */
    unread_transcripts: z.array(UnreadTranscript),
    /** The transcripts gone (deleted or moved) before Baton read what their conversation held (`baton status`). */
    transcripts_not_read: z.array(NotReadTranscript),
    also_open: AlsoOpenList,
    you: You,
  })
  .openapi('WorkflowStatus');

export const SessionStatus = z
  .object({
    session_id: z.string().openapi({ example: 'wf-0123456789#2' }),
    workflow_id: z.string(),
    session_number: z.number().int(),
    task_id: z.string().nullable(),
    workflow_status: WorkflowStatus,
    state: z.enum(['running', 'paused', 'interrupted', 'open', 'ended']),
    origin: z.enum(['create', 'resume', 'recover']),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    end_reason: z.string().nullable(),
    snapshot_id: z.string().nullable(),
    tasks_done: z.number().int(),
    tasks_total: z.number().int(),
    agent_profile_id: z.string().nullable(),
    executor_status: z.enum(['starting', 'ready', 'error', 'stopped']).nullable(),
    agent_execution_id: z.string().nullable(),
    runtime: z.string().nullable(),
    is_agent_running: z.boolean(),
    agent_running_note: z.string(),
    agent_session: z.object({ name: z.string(), session_id: z.string() }).nullable(),
    is_resumable: z.boolean(),
    needs_resume: z.boolean(),
    /** How it goes on, as `baton sessions` says it: `resume`, or `next_session` of the agent its hooks follow. */
    resume_by: z.enum(['resume', 'next_session']).nullable(),
    continued_by: z.string().nullable(),
    resume_reason: z.enum(['agent_not_running', 'not_resumable', 'superseded']).nullable(),
    worktree_path: z.string(),
    worktree_branch: z.string().nullable(),
  })
  .openapi('SessionStatus');

/** One `executors_running` row: where a session's agent runs (`baton executors list`). */
export const ExecutorRow = z
  .object({
    id: z.string(),
    workflow_id: z.string(),
    session_number: z.number().int(),
    runtime: z.enum(['local', 'remote', 'docker']),
    agent: z.string(),
    status: z.enum(['starting', 'ready', 'error', 'stopped']),
    session_state: z.enum(['running', 'waiting_for_input', 'error', 'ended']),
    execution_id: z.string().nullable(),
    resume_token: z.string().nullable(),
    supports_session_resume: z.boolean(),
    supports_workspace_only: z.boolean(),
    pid: z.number().int().nullable(),
    pid_start_time: z.string().nullable(),
    endpoint: z.string().nullable(),
    run_id: z.string().nullable(),
    container_id: z.string().nullable(),
    workspace_path: z.string(),
    worktree_branch: z.string().nullable(),
    owner: z.string().nullable(),
    last_seen_at: z.string(),
    error_message: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ExecutorRow');

export const ExecutorList = z.object({ executors: z.array(ExecutorRow) }).openapi('ExecutorList');

export const SessionTimeline = z
  .object({ workflow_id: z.string(), sessions: z.array(SessionStatus) })
  .openapi('SessionTimeline');

export const SessionsTable = z
  .object({
    sessions: z.array(
      z.object({
        id: z.string(),
        topic: z.string(),
        status: WorkflowStatus,
        step: z.string().openapi({ example: '2/5' }),
        progress: z.number(),
        sessions: z.number().int(),
        resumable: z.boolean(),
        resume_by: z.enum(['resume', 'next_session']).nullable(),
        continued_by: z.string().nullable(),
        /** What goes on with one Baton's driver runs while nothing runs it; absent from an older server. */
        next_step: NextStepSchema.nullable().optional(),
        /** Why the next new agent conversation in its worktree completes it; null: not; absent from an older server. */
        completes_at_next_start: z.string().nullable().optional(),
        worktree: z.string(),
        /** The branch its work was last seen on (null: not known, or a detached HEAD); absent from an older server. */
        branch: z.string().nullable().optional(),
        /** The git identity it was made under (whose it is on a shared database); null: anyone's. */
        owner: z.string().nullable(),
        updated_at: z.string(),
        /** Nothing in it: no issue, task, request or record (a conversation opened and left). */
        empty: z.boolean(),
        /**
         * What it waits for its user to look at, in `baton status`'s words (a pause waiting, a usage limit, an agent
         * gone, the open errors); empty when nothing does, or it is finished.
         */
        needs_you: z.array(z.string()),
      }),
    ),
    you: You,
  })
  .openapi('SessionsTable');

export const PauseResult = z
  .object({
    workflow_id: z.string(),
    outcome: z.enum(['paused', 'requested', 'already_requested', 'already_paused']),
    status: WorkflowStatus,
    snapshot_id: z.string().nullable(),
    waiting_for: z.array(z.string()),
    /** The agent's turn the pause waits for, when it waits for one to end (asked mid-turn; with tasks in progress, whichever ends first). */
    waiting_for_turn: z.object({ session_number: z.number().int(), agent: z.string() }).nullable(),
    /**
     * The request that waits (`requested`: this one; `already_requested`: the one before, which stands as it was, its
     * reason kept), with how long it waits before the pause is forced.
     */
    pause_request: z
      .object({
        reason: z.string().nullable(),
        requested_at: z.string(),
        timeout_ms: z.number().int().positive().optional(),
      })
      .nullable(),
    /** The reason this call gave that was not recorded (`already_requested` with a different reason). */
    ignored_reason: z.string().nullable(),
    warning: z.string().nullable(),
    /** The agent whose hooks follow the workflow (its name), null when none: the person goes on in that agent. */
    following_agent: z.string().nullable(),
    /** Whether that agent's conversation is still open (its next prompt goes on in it); null: not known. */
    conversation_open: z.boolean().nullable(),
    /** Why the next new agent conversation here completes it (paused once its work was done); null: it resumes it. */
    completes_at_next_start: z.string().nullable(),
  })
  .openapi('PauseResult');

export const ResumeResult = z
  .object({
    workflow_id: z.string(),
    status: WorkflowStatus,
    session_number: z.number().int(),
    snapshot_id: z.string(),
    warnings: z.array(z.string()),
    next_task: z.object({ id: z.string(), title: z.string() }).nullable(),
    context: z.string().openapi({ description: 'the compiled resume context (markdown)' }),
    context_json: z.record(z.string(), z.unknown()),
    context_hash: z
      .string()
      .openapi({ description: 'content hash of the context, for the verified handoff' }),
    context_tokens: z.number().int(),
    option: z.enum(['checkpoint', 'live_state', 'fresh']).optional(),
    requeued: z
      .boolean()
      .optional()
      .openapi({ description: 'queued again: a worker ran it before it was paused, and goes on with it' }),
    next_step: NextStepSchema.nullable().optional().openapi({
      description:
        'nothing runs the resumed workflow by itself (`baton run` drives it): the command that does; null when something does',
    }),
    next_run: z.string().nullable().optional().openapi({
      description:
        "what the next `baton run` does with it, in one line: a fresh agent session with the briefing, not the agent's own conversation; null when a worker goes on with it",
    }),
    following_agent: z.string().nullable().optional().openapi({
      description:
        "the agent whose hooks follow the workflow: that agent's next prompt or session goes on with it; null when none",
    }),
    conversation_open: z.boolean().nullable().optional().openapi({
      description: "whether that agent's conversation is still open on this machine; null when not known",
    }),
  })
  .openapi('ResumeResult');

/** A person's resume on a workflow in progress with a pause requested: the request withdrawn, the workflow goes on. */
export const PauseWithdrawn = z
  .object({
    outcome: z.literal('pause_withdrawn'),
    workflow_id: z.string(),
    status: WorkflowStatus,
    pause_request: z.object({ reason: z.string().nullable(), requested_at: z.string() }),
  })
  .openapi('PauseWithdrawn');

/** What `POST /resume` did: a new session (`resumed`), or the pause request it withdrew (`pause_withdrawn`). */
export const ResumeOutcome = z
  .discriminatedUnion('outcome', [ResumeResult.extend({ outcome: z.literal('resumed') }), PauseWithdrawn])
  .openapi('ResumeOutcome');

export const ResumeContext = z
  .object({
    workflow_id: z.string(),
    snapshot_id: z.string(),
    hash: z.string(),
    tokens: z.number().int(),
    budget: z.number().int(),
    over_budget: z.boolean(),
    body: z.string().openapi({
      description:
        'the stamp line, then the briefing its hash is over: the markdown without a retrieval footer',
    }),
    markdown: z.string().openapi({
      description: "the briefing as `baton context` prints it: the body and the CLI's retrieval footer",
    }),
    json: z.record(z.string(), z.unknown()),
  })
  .openapi('ResumeContext');

/** The context `GET .../context` compiles, and what it read first (`transcripts_read`, in words, as `baton context` says it). */
export const ContextRead = ResumeContext.extend({
  transcripts_read: z
    .array(z.string())
    .openapi({ description: "what was read of the workflow's transcripts before compiling, in words" }),
}).openapi('ContextRead');

export const RecoveryPlan = z
  .object({
    workflow_id: z.string(),
    status: WorkflowStatus,
    recoverable: z
      .boolean()
      .openapi({ description: 'whether an option can be chosen now (paused or interrupted)' }),
    refusal: z
      .object({ reason: z.string(), command: z.string().nullable() })
      .nullable()
      .openapi({ description: 'why not, and the command that makes it recoverable (null when none does)' }),
    interrupted_at: z.string().nullable(),
    interrupt_reason: z.string().nullable(),
    last_known_state: z.object({
      task: z.string().nullable(),
      last_event_seq: z.number().int(),
      last_activity: z.string(),
    }),
    options: z.array(
      z.object({
        type: z.enum(['checkpoint', 'live_state', 'fresh']),
        target: z.string(),
        description: z.string(),
        data_loss: z.string(),
        actions_since: z.number().int().nullable(),
        seconds_since: z.number().int().nullable(),
        context_tokens: z.number().int().optional(),
        estimated_cost_usd: z.number().optional(),
        changes: z
          .object({
            tasks: z.array(z.object({ task_id: z.string(), from: z.string(), to: z.string() })),
            git: z
              .object({
                branch: z.string().nullable(),
                from: z.string().nullable(),
                to: z.string(),
                moves_branch: z.boolean(),
                commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
                commits_count: z.number().int(),
                files: z.array(z.object({ status: z.string(), path: z.string() })),
                files_count: z.number().int(),
                backup_ref_prefix: z.string().nullable(),
                dirty_files: z.array(z.string()),
              })
              .nullable(),
            note: z.string(),
          })
          .optional(),
      }),
    ),
    recommended: z.enum(['checkpoint', 'live_state', 'fresh']),
    /** What recovering costs the agent's own conversation a crash cut off; absent from an older server. */
    conversation: z.string().nullable().optional(),
  })
  .openapi('RecoveryPlan');

export const TaskResult = z
  .object({ workflow_id: z.string(), workflow_status: WorkflowStatus, task: Task.optional() })
  .catchall(z.unknown())
  .openapi('TaskResult');

export const AgentTaskSyncResult = z
  .object({
    workflow_id: z.string(),
    added: z.array(z.string()),
    started: z.array(z.string()),
    completed: z.array(z.string()),
    skipped: z.array(z.string()),
    /** Tasks whose title followed the agent's rewording of their item. */
    retitled: z.array(z.string()),
    /** Tasks that now wait for others the agent linked them to. */
    linked: z.array(z.object({ task_id: z.string(), deps: z.array(z.string()) })),
    /** Links refused because the task graph would have a cycle (said by the call that made them). */
    not_linked: z.array(z.object({ task_id: z.string(), deps: z.array(z.string()) })).optional(),
    /** The pause snapshot, when a requested pause took effect at the boundary the agent's list reached. */
    paused_snapshot_id: z.string().optional(),
    /** The list finished every task where a requested pause was due: the pause waits for the agent's turn to end. */
    pause_at_turn_end: z.literal(true).optional(),
    /** The session's first list left these open tasks out: no item of the agent's lists holds them. */
    untied: z.array(z.object({ id: z.string(), title: z.string(), status: z.string() })).optional(),
  })
  .openapi('AgentTaskSyncResult');

export const RecordResult = z
  .object({
    workflow_id: z.string(),
    kind: z.enum(['decision', 'error', 'history', 'test', 'usage', 'feedback', 'request']),
    record: z.unknown(),
  })
  .openapi('RecordResult');

export const CheckpointResult = z
  .object({ workflow_id: z.string(), checkpoint: CheckpointRef })
  .openapi('CheckpointResult');
export const CheckpointList = z
  .object({ workflow_id: z.string(), checkpoints: z.array(CheckpointRef) })
  .openapi('CheckpointList');

export const ImportList = z
  .object({
    workflow_id: z.string(),
    imports: z.array(
      z
        .object({
          transcript_session_id: z.string(),
          ...importFields,
          parser_state: z.unknown().optional().openapi({
            description:
              "the transcript parser's carry-over, for the importer to read on from `through_byte`: opaque, and no stable interface",
          }),
        })
        .openapi('TranscriptImport'),
    ),
  })
  .openapi('ImportList');

/** The git state of a snapshot, or of the worktree now for the workflow as it stands (`live-<version>`). */
export const GitChanges = z
  .object({ git_state: GitState.nullable(), note: z.string().nullable() })
  .openapi('GitChanges');

/** A page of a category's records (`?limit=`, `&before=`), oldest first: positions `from` to `to` of `total`. */
export const DetailsPage = z
  .object({
    records: z.array(z.unknown()),
    total: z.number().int(),
    from: z.number().int(),
    to: z.number().int(),
    next_before: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'pass as `before` for the older records; null: none are older' }),
  })
  .openapi('DetailsPage');

export const Details = z
  .union([
    z.array(Decision),
    z.array(ErrorShown),
    z.array(ReviewerFeedback),
    // the other kinds' records (history, requests, summaries, the tasks) as stored
    z.array(z.unknown()),
    GitChanges,
    z.object({ test_state: TestState.nullable(), runs: z.array(z.unknown()) }),
    DetailsPage,
  ])
  .openapi('SnapshotDetails');

const Commit = z.object({ sha: z.string(), subject: z.string() });

/** A checkpoint restore: the plan (and, once done, the new session). `needs_confirmation`: nothing was changed. */
export const CheckpointRestore = z
  .object({
    workflow_id: z.string(),
    dry_run: z.boolean(),
    needs_confirmation: z.boolean(),
    checkpoint: z.object({
      name: z.string(),
      commit: z.string().nullable(),
      branch: z.string().nullable(),
      snapshot_id: z.string(),
    }),
    task_changes: z.array(z.object({ task_id: z.string(), from: z.string(), to: z.string() })),
    git: z
      .object({
        worktree: z.string(),
        branch: z.string().nullable(),
        commit: z.string(),
        branch_head: z.string().nullable(),
        dirty_files: z.array(z.string()),
        untracked_files: z.array(z.string()),
        commits_dropped: z.number().int(),
        dropped_commits: z.array(Commit),
        files_changed: z.array(z.object({ status: z.string(), path: z.string() })),
        files_changed_count: z.number().int(),
        moves_branch: z.boolean(),
        backup_ref: z.string().nullable(),
        worktree_backup_ref: z.string().nullable(),
        mode: z.enum(['clean', 'stash', 'force']),
      })
      .catchall(z.unknown())
      .nullable(),
    git_note: z.string().nullable(),
    steps: z.array(z.string()),
    recovered: z.object({ session_number: z.number().int() }).catchall(z.unknown()).nullable(),
  })
  .openapi('CheckpointRestore');

export const EventHistory = z
  .object({
    workflow_id: z.string(),
    version: z.number().int(),
    events: z.array(
      z
        .object({
          seq: z.number().int(),
          type: z.string(),
          at: z.string(),
          actor: z.string(),
          session_number: z.number().int().nullable(),
          task_id: z.string().nullable(),
          data: z.unknown(),
        })
        .catchall(z.unknown()),
    ),
  })
  .openapi('EventHistory');

export const TaskLogList = z
  .object({
    workflow_id: z.string(),
    logs: z.array(
      z.object({
        name: z.string(),
        task_id: z.string().nullable(),
        session_number: z.number().int().nullable(),
        size: z.number().int(),
        modified_at: z.string(),
      }),
    ),
  })
  .openapi('TaskLogList');

export const TaskLog = z
  .object({
    workflow_id: z.string(),
    name: z.string(),
    offset: z.number().int(),
    next_offset: z.number().int(),
    size: z.number().int(),
    text: z.string(),
  })
  .openapi('TaskLog');
