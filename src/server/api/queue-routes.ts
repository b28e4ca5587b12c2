import { createRoute, z } from '@hono/zod-openapi';
import { CONTEXT_WINDOW_RANGE, MAX_SESSIONS_RANGE, PRIORITY_RANGE } from '../../core/index.js';
import { cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import { WorkflowParams } from './request-schemas.js';

const SubmitBody = z
  .strictObject({
    agent: z
      .string()
      .min(1)
      .max(100)
      .nullable()
      .default(null)
      .describe(
        'the agent profile: claude-code, codex, command, or a configured one (required; null is refused with what to give)',
      ),
    agent_bin: z.string().min(1).max(4096).nullable().default(null),
    context_window: z
      .number()
      .int()
      .min(CONTEXT_WINDOW_RANGE[0])
      .max(CONTEXT_WINDOW_RANGE[1])
      .nullable()
      .default(null),
    max_sessions: z
      .number()
      .int()
      .min(MAX_SESSIONS_RANGE[0])
      .max(MAX_SESSIONS_RANGE[1])
      .nullable()
      .default(null),
    priority: z.number().int().min(PRIORITY_RANGE[0]).max(PRIORITY_RANGE[1]).nullable().default(null),
    label: z.string().min(1).max(100).nullable().default(null),
  })
  .openapi('SubmitInput');

const QueueEntry = z
  .strictObject({
    workflow_id: z.string(),
    state: z.enum(['queued', 'done']),
    priority: z.number().int(),
    worktree: z.string(),
    label: z.string().nullable(),
    profile: z.strictObject({
      agent: z.string(),
      agent_bin: z.string().nullable(),
      context_window: z.number().nullable(),
      max_sessions: z.number().nullable(),
    }),
    submitted_at: z.string(),
    submitted_by: z.string(),
    claimed_by: z.string().nullable(),
    claimed_at: z.string().nullable(),
    attempts: z.number().int(),
    finished_at: z.string().nullable(),
    outcome: z.string().nullable().openapi({
      description:
        "how a done entry ended; on a queued one, the reasons of its refusals (each worker's that could not start it), joined",
    }),
    refusals: z.array(z.strictObject({ owner: z.string(), reason: z.string(), at: z.string() })).openapi({
      description:
        'on a queued entry: each worker (lease owner) that claimed it and could not start it, why, and when; oldest first, one per worker, until that worker claims it again',
    }),
  })
  .openapi('QueueEntry');

/** A listed entry: `running` while the worker that claimed it holds the workflow's lease. */
const QueueListing = QueueEntry.extend({ running: z.boolean() }).openapi('QueueListing');

const QueueList = z.strictObject({ entries: z.array(QueueListing) }).openapi('QueueList');

/** The work queue: submit a workflow to be run by any worker, and read the queue. */
export function registerQueueRoutes({ app, client }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/submit',
      tags: ['workers'],
      summary:
        'queue the workflow to be run by any `baton worker`, with its agent profile; workers take the highest priority first, then the oldest submission',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(SubmitBody) },
      responses: responses(QueueEntry, 'the queue entry', 201),
    }),
    async (c) => {
      const out = await client.submit(refOf(c, c.req.valid('param').id), c.req.valid('json'));
      return c.json(out, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/queue',
      tags: ['workers'],
      summary: 'the work queue: queued work in the order workers take it, then the work done (newest first)',
      responses: responses(QueueList, 'the queue'),
    }),
    async (c) => c.json(await client.queue(), 200),
  );
}
