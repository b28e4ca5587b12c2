import { z } from '@hono/zod-openapi';
import { isAbsolute } from 'node:path';
import {
  ACTOR_PATTERN,
  agentTaskSources,
  decisionTypes,
  errorResolutions,
  Issue,
  tddPhases,
  NewTask,
  workflowStatuses,
} from '../../core/index.js';
import { detailCategories } from '../../service/index.js';

/**
 * The inputs of every route. Bodies are strict objects: an unknown field is a 400 naming it, never silently
 * dropped. Paths from a client (worktree, cwd) must be absolute, without `..` segments or NUL bytes.
 */
export const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'must not contain NUL bytes')
  .refine((p) => isAbsolute(p), 'must be an absolute path')
  .refine((p) => !p.split(/[\\/]/).includes('..'), 'must not contain ".." segments')
  .openapi({ example: '/home/me/src/app' });

const name = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const Id = z.string().min(1).max(128).regex(name, 'letters, digits, ".", "_" or "-"');

/**
 * Who acts in what a request changes (X-Baton-Actor), as `--actor` is checked (it names a folder of the run folder
 * too); without it, the server's own actor.
 */
export const ActorHeader = z
  .string()
  .regex(ACTOR_PATTERN, 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .openapi({ example: 'claude-code' });

/** X-Baton-Identity, decoded: a git email (`Identity`), or empty for none set where the person asks. */
export const IdentityHeader = z.string().max(320, 'is longer than 320 characters');

export const WorkflowParams = z.strictObject({
  id: Id.openapi({
    param: { name: 'id', in: 'path' },
    description: 'a workflow id, or `current`: the one incomplete workflow of the X-Baton-Cwd worktree',
    example: 'wf-0123456789',
  }),
});
export const SnapshotParams = WorkflowParams.extend({
  sid: Id.openapi({ param: { name: 'sid', in: 'path' }, example: 'snap-0123456789' }),
});
export const SnapshotOnlyParams = z.strictObject({
  sid: Id.openapi({ param: { name: 'sid', in: 'path' }, example: 'snap-0123456789' }),
});
export const DetailCategoryParam = z
  .enum(detailCategories)
  .openapi({ param: { name: 'category', in: 'path' } });

/**
 * A page of a category's records (`DetailsPaging`): the newest `limit` before position `before` (1 is the oldest);
 * without `limit`, every record (and `before` alone is refused).
 */
export const DetailsQuery = z
  .strictObject({
    limit: z.coerce.number().int().min(1).optional(),
    before: z.coerce.number().int().min(1).optional(),
  })
  .refine((q) => q.before === undefined || q.limit !== undefined, {
    message: 'before needs a limit: the newest limit records before that position',
  });

/** Read (and checked: absolute, no `..`, a directory of the server) only where it is used: see api/define.ts. */
export const CwdHeaders = z.object({
  'x-baton-cwd': z
    .string()
    .max(4096)
    .optional()
    .openapi({
      param: { name: 'x-baton-cwd', in: 'header' },
      description:
        "the client's working directory, read only to resolve `current` and a new workflow's worktree; ignored with a workflow id",
      example: '/home/me/src/app',
    }),
  'x-baton-following': Id.optional().openapi({
    param: { name: 'x-baton-following', in: 'header' },
    description:
      'the workflow of the agent conversation the client runs inside: `current` is that one when the worktree has several incomplete workflows',
    example: 'wf-0mx6q65c5000836fcd',
  }),
});

export const ListQuery = z.strictObject({
  status: z
    .string()
    .max(200)
    .optional()
    .openapi({
      description: `comma separated: ${workflowStatuses.join(', ')}`,
      example: 'paused,interrupted',
    }),
  worktree: AbsolutePath.optional(),
});

export const CreateWorkflowBody = z
  .strictObject({
    title: z.string().min(1).max(500),
    tasks: z.array(NewTask).max(2000).default([]),
    issue: z.strictObject(Issue.shape).nullable().optional(),
    plan: z.string().max(2_000_000).optional().openapi({
      description:
        "markdown; given no tasks, its list items (else those of the issue's description) are the tasks, a checked one done",
    }),
    worktree: AbsolutePath.optional().openapi({ description: 'default: the git worktree of cwd' }),
    cwd: AbsolutePath.optional().openapi({ description: 'default: the X-Baton-Cwd header' }),
    title_from_request: z.boolean().optional().openapi({
      description: "the title becomes the first request recorded (a transcript import's workflow)",
    }),
  })
  .openapi('CreateWorkflow');

export const TaskActionParams = WorkflowParams.extend({
  taskId: Id.openapi({ param: { name: 'taskId', in: 'path' }, example: 'T1' }),
  action: z
    .enum(['start', 'done', 'fail', 'block', 'unblock', 'skip'])
    .openapi({ param: { name: 'action', in: 'path' } }),
});
export const AddTaskBody = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(64)
      .regex(name, 'task ids are letters, digits, ".", "_" or "-"')
      .optional()
      .openapi({ description: 'default: the next free T<n> (T1, T2, ...)' }),
    title: z.string().min(1).max(500),
    description: z.string().max(20_000).optional(),
    deps: z.array(Id).max(500).optional(),
    lane: z.number().int().min(0).nullable().optional().openapi({
      description: 'default: the lane of the task it follows, else the highest lane of the plan',
    }),
    after: Id.nullable()
      .optional()
      .openapi({ description: 'place it right after this task (default: last)' }),
  })
  .openapi('AddTask');

export const AgentTaskCallBody = z
  .strictObject({
    tool: z.string().min(1).max(200),
    input: z.unknown(),
    result: z.unknown().optional(),
    at: z.string().max(64).nullable().optional(),
    id: z.string().max(200).nullable().optional(),
  })
  .openapi('AgentTaskCall');

export const SyncAgentTasksBody = z
  .strictObject({
    source: z.enum(agentTaskSources),
    calls: z.array(AgentTaskCallBody).max(10_000),
    /** The caller tells the agent the open tasks its list left out (a hook's answer): they are marked told. */
    tells: z.boolean().optional(),
    /** The calls were read from the agent's transcript (an import): the agent acts in the log, not the reader. */
    read: z.boolean().optional(),
  })
  .openapi('SyncAgentTasks', {
    description:
      "the agent's task-tool calls (TodoWrite, TaskCreate, TaskUpdate, update_plan) since the last sync, in order",
  });

export const NoteBody = z
  .strictObject({ note: z.string().max(20_000).nullable().optional() })
  .openapi('TaskNote', { description: 'the summary (done) or reason (fail, block, skip)' });

const text = (max = 20_000) => z.string().max(max);
const opt = <T extends z.ZodType>(t: T) => t.nullable().default(null);

/** Where a record read from a transcript was seen (core's Evidence, bounded). */
const EvidenceBody = z
  .strictObject({ transcript: text(4096).min(1), line: z.number().int().nonnegative() })
  .openapi('Evidence', { description: "the transcript (a path on the reader's machine) and the line" });

export const DecisionBody = z
  .strictObject({
    decision_type: z.enum(decisionTypes),
    description: text().min(1),
    rationale: text().default(''),
    alternatives_considered: opt(z.array(text(2000)).max(100)),
    task_id: opt(Id),
    evidence: EvidenceBody.optional(),
  })
  .openapi('DecisionInput');

export const ErrorBody = z
  .strictObject({
    error_type: text(500).min(1),
    error_message: text().min(1),
    context: opt(text()),
    resolution: z.enum(errorResolutions).default('unresolved'),
    resolution_notes: opt(text()),
    task_id: opt(Id),
    evidence: EvidenceBody.optional(),
  })
  .openapi('ErrorInput');

export const HistoryBody = z
  .strictObject({ text: text().min(1), task_id: opt(Id), source: opt(text(200)) })
  .openapi('HistoryInput');

export const RequestBody = z
  .strictObject({
    text: text(200_000).min(1),
    at: opt(text(64)),
    source: opt(text(200)),
    /** the agent's message the request answered (a transcript's); absent: the last message recorded since the request before */
    agent_said: text(200_000).nullable().optional(),
  })
  .openapi('RequestInput', {
    description: "what the user asked, in their words; the first request becomes the workflow's issue",
  });

export const TestRunBody = z
  .strictObject({
    phase: z.enum(tddPhases),
    failing_tests: z.array(text(2000)).max(10_000).default([]),
    expected_failures: z.array(text(2000)).max(10_000).default([]),
    last_test_command: opt(text(2000)),
    last_test_output_summary: opt(text(2000)),
    passed: z.number().int().nonnegative().nullable().optional(),
    failed: z.number().int().nonnegative().nullable().optional(),
    skipped: z.number().int().nonnegative().nullable().optional(),
    coverage: z.number().min(0).max(100).nullable().optional(),
    runner: text(100).nullable().optional(),
  })
  .openapi('TestRunInput');

const count = z.number().int().nonnegative();
export const UsageBody = z
  .strictObject({
    tokens_used: count,
    tokens_remaining_estimate: opt(z.number().int()),
    context_utilization: opt(z.number().min(0).max(1)),
    llm_calls: count.default(0),
    tool_calls: count.default(0),
    cost_usd: opt(z.number().nonnegative()),
    session_duration_seconds: count.default(0),
    context_window: opt(z.number().int().positive()),
    output_tokens: count.nullable().optional(),
    output_tokens_estimated: z.boolean().optional(),
    context_tokens: count.nullable().optional(),
    peak_context_tokens: count.nullable().optional(),
  })
  .openapi('UsageInput');

export const FeedbackBody = z
  .strictObject({
    reviewer_persona: text(200).min(1),
    approved: z.boolean().default(false),
    severity: text(50).default('medium'),
    comments: z.array(text()).max(1000).default([]),
    addressed: z.boolean().default(false),
  })
  .openapi('ReviewerFeedbackInput');

export const ResolveErrorParams = WorkflowParams.extend({
  errorId: Id.openapi({ param: { name: 'errorId', in: 'path' } }),
});
export const ResolveErrorBody = z.strictObject({
  resolution: z.enum(errorResolutions),
  notes: opt(text()),
});
export const ReviewParams = WorkflowParams.extend({
  reviewId: Id.openapi({ param: { name: 'reviewId', in: 'path' } }),
});

/**
 * `theirs`: the person means it of a teammate's workflow (one whose owner is not the person asking, told by their
 * identity, X-Baton-Identity): a pause, resume, abandon or recovery of one is refused without it (409, naming whose it is).
 */
const Theirs = z.boolean().default(false);

/** `timeout_ms`: how long a requested pause waits before it is forced (the server's `--pause-timeout` otherwise). */
export const PauseBody = z
  .strictObject({
    reason: opt(text(2000)),
    force: z.boolean().default(false),
    theirs: Theirs,
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(30 * 24 * 3600 * 1000)
      .optional(),
    /** `agent`: the agent asks it itself (the MCP tool `request_pause`); what it is told names it, not its user. */
    asked_by: z.literal('agent').optional(),
  })
  .openapi('PauseInput');
export const ReasonBody = z.strictObject({ reason: opt(text(2000)) });
export const AbandonBody = z.strictObject({ reason: opt(text(2000)), theirs: Theirs });
/** `force`: complete with tasks not done (they are left as they are); without it they are refused, named. */
export const CompleteBody = z
  .strictObject({ reason: opt(text(2000)), force: z.boolean().default(false) })
  .openapi('CompleteInput');
export const CheckpointBody = z.strictObject({ name: z.string().min(1).max(100) });
/**
 * The git identity of the person asking, where they are (null: none is set there): whose a workflow is to them, a
 * teammate's told apart by it (its checkpoint not restored, its git state not read from here). The CLI sends it in the
 * X-Baton-Identity header of every request, which every route reads; this field (sent by CLIs older than the header)
 * wins over it where it is given. Absent both (the dashboard): the identity where the server runs (`askerOf`).
 */
export const Identity = z.string().max(320).nullable().optional();
/** `Identity` in a query (a GET's): `identity=` (empty) is none set where the person asks. */
export const IdentityQuery = z.strictObject({
  identity: z
    .string()
    .max(320)
    .optional()
    .transform((v) => (v === '' ? null : v)),
});
export const ResumeBody = z.strictObject({ identity: Identity, theirs: Theirs });
export const RecoverBody = z.strictObject({
  option: z.enum(['checkpoint', 'live_state', 'fresh']),
  checkpoint: opt(z.string().max(200)),
  identity: Identity,
  theirs: Theirs,
});
export const CleanupBody = z.strictObject({
  older_than_ms: z.number().int().nonnegative(),
  dry_run: z.boolean().default(false),
});
export const RebuildBody = z.strictObject({ workflow_id: Id.optional() });
export const SessionParams = WorkflowParams.extend({
  n: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: 'n', in: 'path' }, example: 1 }),
});
