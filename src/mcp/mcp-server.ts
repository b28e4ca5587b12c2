import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { BatonClient, Ref } from '../client/baton-client.js';
import {
  BatonError,
  briefingFor,
  decisionTypes,
  errorResolutions,
  inWordsOf,
  invalidTransition,
  pauseTookEffectWords,
  resumeItFirst,
  tddPhases,
  testsLeftFailing,
  testsLeftFailingWords,
  type NotRead,
} from '../core/index.js';
import { detailCategories, detailsText, pagedCategories } from '../service/index.js';
import { PACKAGE_VERSION } from '../config/package-info.js';
import { argsOf, wholeNumber } from './tool-args.js';

type Text = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
const text = (value: unknown): Text => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
});

/**
 * Runs a tool body, its answer shaped by `shape` (as text by default); Baton's errors become MCP tool errors with their
 * code, so the agent can react, and say what to pass or call in this server's words (`inWordsOf`: an agent here may
 * have no terminal to run a command in).
 */
async function tool<T>(fn: () => Promise<T>, shape: (value: T) => Text = text): Promise<Text> {
  try {
    return shape(await fn());
  } catch (e) {
    const err = BatonError.isInstance(e) ? e : new BatonError('internal', (e as Error).message);
    return {
      ...text({ error: { code: err.code, message: mcpMessage(err), ...err.details } }),
      isError: true,
    };
  }
}

/**
 * An error's message in this server's words. A refusal because the user paused the workflow (`paused_by`) tells the
 * agent so, to end its turn and not to resume it (`pauseTookEffectWords`), where the CLI tells the person at the
 * terminal to resume it first (`resumeItFirst`): the resume is theirs.
 */
function mcpMessage(err: BatonError): string {
  const by = err.details.paused_by;
  if (by !== 'user' && by !== 'agent') return inWordsOf('mcp', err.message);
  const reason = typeof err.details.pause_reason === 'string' ? err.details.pause_reason : null;
  return `${err.message.replace(resumeItFirst, '')}. ${pauseTookEffectWords(reason, by === 'agent' ? by : undefined)}`;
}

/** A resource's answer; its failure in the tools' words (`workflow_id`, not `-w <id>`), which the SDK reports as is. */
async function resource<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!BatonError.isInstance(e)) throw e;
    throw new BatonError(e.code, inWordsOf('mcp', e.message), e.details);
  }
}

/** What could not be read, for the agent: the briefing lacks it, and how to read it before going on. */
const notReadLine = (n: NotRead) =>
  `Warning: Baton could not read what ${n.path} gained since it last read it (${n.why}), so the briefing above lacks that work (a killed agent's last turn, say). Run \`${n.command}\` once that is fixed, then call get_resume_context again; until then, check the worktree (git status, git log) before redoing anything.`;

/** How many records get_details returns when not told: the newest, with how many there are and how to read more. */
const DETAILS_LIMIT = 20;

const workflow = {
  workflow_id: z.string().optional().describe('the workflow (default: the one of the current worktree)'),
};

const taskId = z.string().describe("the task's id (e.g. T3), as next_task and the resume context list it");
const ofTask = z.string().optional().describe('the task it belongs to');
const resolutionNotes = z.string().optional().describe('how it was resolved, or why deferred');

/** What the client puts before the tool list, so the model knows when to reach for these tools. */
const INSTRUCTIONS = [
  'Baton keeps this coding session resumable: its hooks already record the requests, your todo list, commands, tests,',
  'commits and errors, and hand the next session a resume context. Call get_resume_context when you start without',
  "one (or lost it to a compaction) and ack_context with its hash; get_details for a category's full records.",
  'Record what a transcript does not show: record_decision for a choice and its reason, record_error/resolve_error',
  "for a failure and its fate. The plan's tasks: next_task, start_task, complete_task, fail_task, add_task.",
  'request_pause asks the work to stop at a clean boundary; create_checkpoint saves where things stand.',
].join(' ');

const taskToolDescriptions = {
  start: "Mark a task of the workflow's plan in progress: the one you take up (next_task names it).",
  done: 'Mark a task done, with what was done in a line: the next session reads it and does not redo it. Refused while its last test run failed (force: true when they are meant to fail).',
  fail: 'Mark a task failed, with why: the next session reads it and may try the task again.',
} as const;

const taskNotes = {
  summary: 'what was done, in a line',
  reason: 'why it failed: the error, or what is missing',
} as const;

/**
 * An agent's completion of a task whose last test run since it started failed is refused, as `baton run` fails a turn
 * that ends on failing tests (`testsLeftFailing`: the same judgement, a red step and announced failures allowed).
 * Refused rather than recorded as failed: the agent is still in its turn and can act on the answer, making the tests
 * pass, or, when they are meant to fail (failures not of this task's making), completing it with `force` and saying
 * why in its summary, which then says the tests were failing. The summary to record, or the refusal thrown.
 */
async function completion(
  client: BatonClient,
  r: Ref,
  taskId: string,
  summary: string | null,
  force: boolean,
): Promise<string | null> {
  const s = await client.status(r);
  const task = s.tasks.find((t) => t.id === taskId);
  // an unknown task: the completion says so
  const left = task ? testsLeftFailing(s, task, task.started_at) : null;
  if (!left) return summary;
  const words = testsLeftFailingWords(left);
  if (force) return `${summary ? `${summary} ` : ''}(completed with its tests failing: ${words})`;
  throw invalidTransition(
    `cannot complete ${taskId}: its last test run failed: ${words}. Make the tests pass and call complete_task again; if ${taskId} is meant to leave them failing (a red step, or failures that are not this task's), call complete_task with force: true and say why in summary`,
    { task_id: taskId, tests_failing: left },
  );
}

/**
 * A pause someone asked for, taken at the task end an agent just reported: what it is told first, so that it stops
 * (its snapshot holds the reason). Null for a pause no one asked for (`baton run --max-tasks`).
 */
async function pausedFor(client: BatonClient, r: Ref, snapshotId: string): Promise<string | null> {
  const snap = await client.snapshot(r, snapshotId);
  if (snap.trigger !== 'pause') return null;
  // the agent's own request (`request_pause`) is said as its own, not its user's
  const askedBy = (await client.get(r)).pause_asked_by ?? undefined;
  return pauseTookEffectWords(snap.pause_reason, askedBy);
}

/** A task tool's answer: the task moved, after the words that stop the agent when a pause took effect there. */
const taskMoved = (r: { moved: unknown; stop: string | null }): Text => ({
  content: [...(r.stop ? [{ type: 'text' as const, text: r.stop }] : []), ...text(r.moved).content],
});

/**
 * Baton over MCP: the tools an agent needs to follow a workflow from inside its own session, and the
 * snapshots as resources. Every tool goes through the same BatonClient as the CLI.
 */
export function createMcpServer(
  client: BatonClient,
  cwd: string,
  /** The workflow of the agent conversation that started this server, when the hooks tie it to one. */
  following: () => string | null = () => null,
  /**
   * Reads what the workflow's transcripts on this machine gained with no agent at work to read it, before its context
   * is handed over, as `baton context` does (given by `baton mcp`: the server may not import the integrations).
   */
  readFirst?: (ref: Ref) => Promise<{ workflow_id: string; not_read?: NotRead[] }>,
  /**
   * The git identity of the person where the server runs (given by `baton mcp`, as `baton resume` asks it): whose a
   * workflow is to its resume. Unset: the service (or a server) judges by the clone at the workflow's path.
   */
  identity?: () => Promise<string | null>,
): McpServer {
  const server = new McpServer({ name: 'baton', version: PACKAGE_VERSION }, { instructions: INSTRUCTIONS });
  const ref = (a: { workflow_id?: string | undefined }): Ref => {
    const own = a.workflow_id ? null : following();
    return { workflowId: a.workflow_id, cwd, ...(own ? { following: own } : {}) };
  };

  server.registerTool(
    'get_resume_context',
    {
      description:
        "The compiled resume context of the workflow (markdown, with its content hash). Acknowledge it with ack_context. A transcript of this machine holding work Baton could not read first (a killed agent's last turn) is said after it, with the command that reads it (`transcripts_not_read`).",
      inputSchema: argsOf('get_resume_context', {
        ...workflow,
        budget: z
          .number()
          .int()
          .min(200)
          .max(1_000_000)
          .optional()
          .describe('the most tokens the context may take (default: the configured context budget)'),
      }),
      outputSchema: {
        hash: z.string().describe('the content hash to acknowledge with ack_context'),
        transcripts_not_read: z
          .array(z.object({ path: z.string(), why: z.string(), command: z.string() }))
          .describe(
            'transcripts holding work Baton could not read before compiling the context, which therefore lacks it: why, and the command that reads it',
          ),
      },
    },
    (a) =>
      tool(
        async () => {
          const first = readFirst ? await readFirst(ref(a)) : null;
          const c = await client.deliverContext(
            first ? { workflowId: first.workflow_id } : ref(a),
            'mcp',
            a.budget,
          );
          // `baton context`'s briefing, whose hash it is, with this server's footer: the MCP tools named first
          const markdown = briefingFor(c.markdown, { id: c.snapshot_id, workflow_id: c.workflow_id }, 'mcp');
          return { markdown, hash: c.hash, not_read: first?.not_read ?? [] };
        },
        // what could not be read is said after the briefing, which lacks it: the agent reads both
        (c) => ({
          content: [
            { type: 'text', text: c.markdown },
            ...c.not_read.map((n) => ({ type: 'text' as const, text: notReadLine(n) })),
          ],
          structuredContent: { hash: c.hash, transcripts_not_read: c.not_read },
        }),
      ),
  );
  server.registerTool(
    'ack_context',
    {
      description: 'Confirm which resume context (by hash) this session loaded.',
      inputSchema: argsOf('ack_context', {
        ...workflow,
        hash: z.string().describe('the hash get_resume_context gave'),
      }),
    },
    (a) =>
      tool(async () => {
        const r = await client.acknowledge(ref(a), a.hash, 'mcp');
        // a stale hash: what to do, in this server's words (get_resume_context, not `baton context`)
        return r.next ? { ...r, next: inWordsOf('mcp', r.next) } : r;
      }),
  );
  server.registerTool(
    'get_details',
    {
      description: `The records of one category (${detailCategories.join(', ')}) as the workflow stands now, or as of a snapshot given its id: the newest ${DETAILS_LIMIT} by default (limit), the older ones with before; the answer says how many there are.`,
      inputSchema: argsOf('get_details', {
        ...workflow,
        category: z.enum(detailCategories).describe('what to list'),
        snapshot_id: z
          .string()
          .optional()
          .describe(
            'a snapshot id (live-N from the briefing, or a stored one); default: the workflow as it stands now',
          ),
        limit: wholeNumber(1)
          .optional()
          .describe(
            `the newest records to return (default ${DETAILS_LIMIT}); git-changes and test-state are no list and take none`,
          ),
        before: wholeNumber(1)
          .optional()
          .describe(
            'only records before this position (1 is the oldest), as the answer says for the older ones',
          ),
      }),
    },
    (a) =>
      tool(
        () =>
          client.details(
            ref(a),
            a.snapshot_id ?? null,
            a.category,
            // the lists are paged, newest first; git-changes and test-state are one state each
            (pagedCategories as readonly string[]).includes(a.category) ||
              a.limit !== undefined ||
              a.before !== undefined
              ? { limit: a.limit ?? DETAILS_LIMIT, before: a.before }
              : undefined,
          ),
        // in the words `baton details` prints them, and how to read the older ones in this server's
        (d) => text(detailsText(a.category, d, a.snapshot_id ?? null, 'mcp')),
      ),
  );
  server.registerTool(
    'next_task',
    {
      description: 'The task to work on next, the runnable tasks and the workflow status.',
      inputSchema: argsOf('next_task', workflow),
    },
    (a) =>
      tool(async () => {
        const s = (await client.status(ref(a))) as Record<string, unknown>;
        return {
          workflow: s.workflow,
          next_task: s.next_task,
          runnable_tasks: s.runnable_tasks,
          counts: s.counts,
        };
      }),
  );
  for (const [name, action, note] of [
    ['start_task', 'start', null],
    ['complete_task', 'done', 'summary'],
    ['fail_task', 'fail', 'reason'],
  ] as const) {
    server.registerTool(
      name,
      {
        description: taskToolDescriptions[action],
        inputSchema: argsOf(name, {
          ...workflow,
          task_id: taskId,
          ...(note ? { [note]: z.string().optional().describe(taskNotes[note]) } : {}),
          ...(action === 'done'
            ? {
                force: z
                  .boolean()
                  .optional()
                  .describe(
                    'complete it even though its last test run failed (a red step, or failures not of this task): say why in summary',
                  ),
              }
            : {}),
        }),
      },
      // the shape, built per tool, types its arguments loosely: these are what each of the three may hold
      (args) =>
        tool(async () => {
          const a = args as {
            workflow_id?: string;
            task_id: string;
            summary?: string;
            reason?: string;
            force?: boolean;
          };
          const said = a.summary ?? a.reason ?? null;
          const noteOf =
            action === 'done' ? await completion(client, ref(a), a.task_id, said, a.force === true) : said;
          const moved = await client.task(ref(a), action, a.task_id, noteOf);
          return {
            moved,
            stop:
              moved.paused === true && typeof moved.snapshot_id === 'string'
                ? await pausedFor(client, ref(a), moved.snapshot_id)
                : null,
          };
        }, taskMoved),
    );
  }
  server.registerTool(
    'add_task',
    {
      description:
        "Add a task to the workflow's plan (it shows in the next session's context). Baton already follows your own todo list; use this for work that must outlive it.",
      inputSchema: argsOf('add_task', {
        ...workflow,
        task_id: z
          .string()
          .optional()
          .describe('a short id: letters, digits, ".", "_" or "-" (e.g. T7); default: the next free T<n>'),
        title: z.string().min(1).describe('what the task is, in a line'),
        description: z.string().optional().describe('more on it, if a line is not enough'),
        deps: z.array(z.string()).optional().describe('tasks that must be done first'),
        after: z.string().optional().describe('place it right after this task'),
        lane: wholeNumber(0)
          .optional()
          .describe(
            "a group of tasks that all finish before the next lane starts (default: after's lane, else the last)",
          ),
      }),
    },
    (a) =>
      tool(() =>
        client.addTask(ref(a), {
          ...(a.task_id !== undefined ? { id: a.task_id } : {}),
          title: a.title,
          ...(a.description !== undefined ? { description: a.description } : {}),
          deps: a.deps ?? [],
          after: a.after ?? null,
          lane: a.lane ?? null,
        }),
      ),
  );
  server.registerTool(
    'record_decision',
    {
      description: `Record a significant decision with its rationale; decision_type is one of ${decisionTypes.join(', ')}.`,
      inputSchema: argsOf('record_decision', {
        ...workflow,
        decision_type: z.enum(decisionTypes).describe('its kind'),
        description: z.string().min(1).describe('what was decided'),
        rationale: z.string().default('').describe('why'),
        alternatives_considered: z.array(z.string()).optional().describe('what was chosen against'),
        task_id: ofTask,
      }),
    },
    (a) =>
      tool(() =>
        client.record(ref(a), {
          kind: 'decision',
          decision: {
            decision_type: a.decision_type,
            description: a.description,
            rationale: a.rationale,
            alternatives_considered: a.alternatives_considered ?? null,
            task_id: a.task_id ?? null,
          },
        }),
      ),
  );
  server.registerTool(
    'record_error',
    {
      description:
        'Record a new error and its resolution (unresolved by default). To resolve an error already recorded, call resolve_error with its id: recording it again adds a second error.',
      inputSchema: argsOf('record_error', {
        ...workflow,
        error_type: z.string().min(1).describe('its kind in a word or two (e.g. TestFailure, Build)'),
        error_message: z.string().min(1).describe('what it said'),
        context: z.string().optional().describe('what was being done when it happened'),
        resolution: z.enum(errorResolutions).default('unresolved').describe('what became of it'),
        resolution_notes: resolutionNotes,
        task_id: ofTask,
      }),
    },
    (a) =>
      tool(() =>
        client.record(ref(a), {
          kind: 'error',
          error: {
            error_type: a.error_type,
            error_message: a.error_message,
            context: a.context ?? null,
            resolution: a.resolution,
            resolution_notes: a.resolution_notes ?? null,
            task_id: a.task_id ?? null,
          },
        }),
      ),
  );
  server.registerTool(
    'resolve_error',
    {
      description:
        "Set the resolution of an error already recorded, by its id (record_error's answer, or get_details with category errors); the briefing then shows it resolved.",
      inputSchema: argsOf('resolve_error', {
        ...workflow,
        error_id: z.string().min(1).describe("the error's id (e.g. err-...)"),
        resolution: z.enum(errorResolutions).describe('what became of it'),
        resolution_notes: resolutionNotes,
      }),
    },
    (a) => tool(() => client.resolveError(ref(a), a.error_id, a.resolution, a.resolution_notes ?? null)),
  );
  server.registerTool(
    'record_test_run',
    {
      description: 'Record a test run and the TDD phase (green: every test passes, so no failing_tests).',
      inputSchema: argsOf('record_test_run', {
        ...workflow,
        phase: z
          .enum(tddPhases)
          .describe('red: tests written to fail; green: all pass; refactor: pass after a cleanup'),
        failing_tests: z.array(z.string()).default([]).describe('the tests that failed'),
        expected_failures: z
          .array(z.string())
          .optional()
          .describe('those meant to fail (default: all of them in red, none otherwise)'),
        command: z.string().optional().describe('the command run'),
        summary: z.string().optional().describe('what it printed, in short'),
      }),
    },
    (a) =>
      tool(() =>
        client.record(ref(a), {
          kind: 'test',
          test: {
            phase: a.phase,
            failing_tests: a.failing_tests,
            expected_failures: a.expected_failures ?? (a.phase === 'red' ? a.failing_tests : []),
            last_test_command: a.command ?? null,
            last_test_output_summary: a.summary?.slice(0, 2000) ?? null,
          },
        }),
      ),
  );
  server.registerTool(
    'request_pause',
    {
      description:
        'Pause the workflow at the next task boundary, or, with no task in progress, when your turn ends (or now with force).',
      inputSchema: argsOf('request_pause', {
        ...workflow,
        reason: z.string().optional().describe('why, for whoever resumes it'),
        force: z.boolean().optional().describe('pause now, not at the boundary'),
      }),
    },
    // the agent's own ask: what it and the next session are told name the agent as asking, not its user
    (a) =>
      tool(() =>
        client.pause(ref(a), { reason: a.reason ?? null, force: a.force ?? false, asked_by: 'agent' }),
      ),
  );
  server.registerTool(
    'resume_workflow',
    {
      description:
        'Resume a paused or interrupted workflow, as `baton resume` does: its next session starts, and its resume context comes back (acknowledge it with ack_context). A pause someone asked for stops the work: resume only to go on with it. On a workflow in progress with a pause requested, it withdraws that request (outcome pause_withdrawn): the work goes on.',
      inputSchema: argsOf('resume_workflow', {
        ...workflow,
        theirs: z
          .boolean()
          .optional()
          .describe(
            "resume a teammate's workflow (refused without it, naming whose it is); they are told who did",
          ),
      }),
    },
    (a) =>
      tool(async () => {
        // the person's identity here, as `baton resume` sends it: a teammate's workflow is told apart by it (its git
        // state not read from their clone), here and on a server run under another identity; one of theirs is
        // refused unless `theirs`
        const theirs = a.theirs === true;
        const r = await client.resume(ref(a), identity ? { identity: await identity(), theirs } : { theirs });
        if (r.outcome === 'pause_withdrawn') return r;
        return {
          outcome: r.outcome,
          workflow_id: r.workflow_id,
          status: r.status,
          session_number: r.session_number,
          next_task: r.next_task,
          warnings: r.warnings,
          context_hash: r.context_hash,
          context: briefingFor(r.context, { id: r.snapshot_id, workflow_id: r.workflow_id }, 'mcp'),
        };
      }),
  );
  server.registerTool(
    'create_checkpoint',
    {
      description:
        'Make a named checkpoint: a snapshot, and the git commit HEAD is at (uncommitted files are not saved).',
      inputSchema: argsOf('create_checkpoint', {
        ...workflow,
        name: z.string().min(1).describe('a few words for where things stand'),
      }),
    },
    (a) => tool(() => client.checkpoint(ref(a), a.name)),
  );

  server.registerResource(
    'snapshot',
    new ResourceTemplate('baton://snapshots/{snapshot_id}', {
      list: () =>
        resource(async () => {
          const { snapshots } = await client.snapshots({ cwd });
          return {
            resources: snapshots.map((s) => ({
              uri: `baton://snapshots/${s.id}`,
              name: `session ${s.session_number} ${s.trigger} (${s.tasks_completed}/${s.tasks_completed + s.tasks_remaining})`,
              mimeType: 'application/json',
            })),
          };
        }),
    }),
    { description: 'A session snapshot of the current workflow', mimeType: 'application/json' },
    (uri, vars) =>
      resource(async () => {
        const snap = await client.snapshot({ cwd }, String(vars.snapshot_id));
        return {
          contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(snap, null, 2) }],
        };
      }),
  );
  return server;
}
