import { createRoute, z } from '@hono/zod-openapi';
import { errorResolutions, sideEffectKinds, snapshotTriggers, summaryKinds } from '../../core/index.js';
import { cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import {
  DecisionBody,
  ErrorBody,
  FeedbackBody,
  HistoryBody,
  RequestBody,
  TestRunBody,
  UsageBody,
  WorkflowParams,
} from './request-schemas.js';
import { ContextRead, ResumeContext } from './response-schemas.js';

const tags = ['context'];
const Channel = z.enum(['hook', 'mcp', 'cli', 'runner']);
const Budget = z.coerce.number().int().min(200).max(1_000_000);

/** When a record happened (a transcript's timestamp); the time of recording when absent. */
const At = z.string().max(64).nullable().optional();

/** One record of a batch, in the client's RecordInput shape. */
const BatchItem = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('decision'), decision: DecisionBody, at: At }),
  z.strictObject({ kind: z.literal('error'), error: ErrorBody, at: At }),
  z.strictObject({ kind: z.literal('history'), ...HistoryBody.shape, at: At }),
  z.strictObject({ kind: z.literal('test'), test: TestRunBody, at: At }),
  z.strictObject({ kind: z.literal('usage'), usage: UsageBody }),
  z.strictObject({ kind: z.literal('feedback'), feedback: FeedbackBody }),
  z.strictObject({
    kind: z.literal('side_effect'),
    effect: z.strictObject({
      task_id: z.string().max(128).nullable(),
      kind: z.enum(sideEffectKinds),
      tool: z.string().min(1).max(200),
      summary: z.string().min(1).max(2000),
    }),
    at: At,
  }),
  z.strictObject({
    kind: z.literal('summary'),
    summary: z.strictObject({
      kind: z.enum(summaryKinds),
      text: z.string().min(1).max(200_000),
      source: z.string().max(100).nullable(),
      turn_ended: z.boolean().optional(),
      said_nothing: z.boolean().optional(),
      resets_at: z.string().max(100).nullable().optional(),
    }),
    at: At,
  }),
  z.strictObject({
    kind: z.literal('resolution'),
    error_id: z.string().min(1).max(128),
    resolution: z.enum(errorResolutions),
    notes: z.string().max(20_000).nullable(),
  }),
  z.strictObject({ kind: z.literal('request'), ...RequestBody.shape }),
  z.strictObject({
    kind: z.literal('ci'),
    ci: z.strictObject({
      outcome: z.enum(['pass', 'fail']),
      passed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      failing: z.array(z.string().max(500)).max(50),
      command: z.string().max(2000).nullable(),
      commit: z.string().max(64).nullable(),
      cut: z.boolean().optional(),
    }),
    at: At,
  }),
]);

/** The compiled context, its verified handoff, snapshots on demand and batched records (imports, hooks, MCP). */
export function registerContextRoutes({ app, client, readFirst }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/context',
      tags,
      summary:
        "the compiled resume context a new session would get now (markdown, JSON, hash, tokens), after reading what the workflow's transcripts on the server's machine gained with no agent at work to read it",
      request: {
        params: WorkflowParams,
        query: z.strictObject({ budget: Budget.optional() }),
        ...cwdHeaders,
      },
      responses: responses(ContextRead, 'the resume context, and what was read first'),
    }),
    async (c) => {
      const ref = refOf(c, c.req.valid('param').id);
      // read first, as `baton context` does: the context of a killed agent's workflow then holds its last turn
      const first = readFirst ? await readFirst(client, ref) : null;
      const compiled = await client.context(
        first ? { workflowId: first.workflow_id } : ref,
        c.req.valid('query').budget,
      );
      return c.json({ ...compiled, transcripts_read: first?.read ?? [] }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/context/deliver',
      tags,
      summary: 'hand the current context to the running session and record the delivery',
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        body: jsonBody(z.strictObject({ via: Channel, budget: Budget.optional() })),
      },
      responses: responses(ResumeContext, 'the delivered context'),
    }),
    async (c) => {
      const b = c.req.valid('json');
      return c.json(await client.deliverContext(refOf(c, c.req.valid('param').id), b.via, b.budget), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/context/ack',
      tags,
      summary: 'the session confirms which context (by hash) it loaded',
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        body: jsonBody(
          z.strictObject({ hash: z.string().regex(/^[0-9a-f]{8,64}$/), via: Channel.default('cli') }),
        ),
      },
      responses: responses(
        z.object({
          acknowledged: z.string(),
          latest: z.string().nullable(),
          matches: z.boolean(),
          next: z.string().optional().openapi({
            description: 'when it does not match: what to do (read the latest context, acknowledge it)',
          }),
        }),
        'acknowledged',
      ),
    }),
    async (c) => {
      const b = c.req.valid('json');
      return c.json(await client.acknowledge(refOf(c, c.req.valid('param').id), b.hash, b.via), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/snapshots',
      tags: ['snapshots'],
      summary: 'take a snapshot now, without a change of state (e.g. trigger exhaustion before a compaction)',
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        body: jsonBody(
          z.strictObject({
            trigger: z.enum(snapshotTriggers),
            reason: z.string().max(2000).nullable().default(null),
          }),
        ),
      },
      responses: responses(
        z.object({ workflow_id: z.string(), snapshot_id: z.string() }),
        'the snapshot taken',
      ),
    }),
    async (c) => {
      const b = c.req.valid('json');
      return c.json(await client.snapshotNow(refOf(c, c.req.valid('param').id), b.trigger, b.reason), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/records',
      tags: ['records'],
      summary: 'append several records in one commit (transcript imports)',
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        body: jsonBody(
          z.strictObject({
            records: z.array(BatchItem).max(10_000),
            import: z
              .strictObject({
                format: z.string().min(1).max(64),
                transcript_session_id: z.string().min(1).max(256),
                path: z.string().max(4096).nullable(),
                through_line: z.number().int().nonnegative(),
                from_line: z.number().int().nonnegative().optional(),
                through_byte: z.number().int().nonnegative().optional(),
                parser_state: z.unknown().optional(),
                recorded_in: z
                  .object({ cwd: z.string().max(4096).nullable(), branch: z.string().max(1024).nullable() })
                  .optional(),
                extractor: z.string().max(64).optional(),
                fallback_reason: z.string().max(2000).nullable().optional(),
              })
              .optional(),
          }),
        ),
      },
      responses: responses(z.object({ workflow_id: z.string(), count: z.number().int() }), 'appended'),
    }),
    async (c) => {
      const b = c.req.valid('json');
      const out = await client.recordBatch(refOf(c, c.req.valid('param').id), b.records, b.import);
      return c.json(out, 200);
    },
  );
}
