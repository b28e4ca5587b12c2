import { createRoute, z } from '@hono/zod-openapi';
import type { RecordInput } from '../../client/baton-client.js';
import { cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import {
  AddTaskBody,
  DecisionBody,
  ErrorBody,
  FeedbackBody,
  HistoryBody,
  NoteBody,
  RequestBody,
  ResolveErrorBody,
  ResolveErrorParams,
  ReviewParams,
  SyncAgentTasksBody,
  TaskActionParams,
  TestRunBody,
  UsageBody,
  WorkflowParams,
} from './request-schemas.js';
import { AgentTaskSyncResult, Loose, RecordResult, TaskResult } from './response-schemas.js';

/** One route per record kind: path segment, body schema, and how the body becomes the client's RecordInput. */
const recordRoutes = [
  {
    path: 'decisions',
    schema: DecisionBody,
    summary: 'record a decision (with rationale and alternatives)',
    input: (b: z.infer<typeof DecisionBody>): RecordInput => ({ kind: 'decision', decision: b }),
  },
  {
    path: 'errors',
    schema: ErrorBody,
    summary: 'record an error and its resolution',
    input: (b: z.infer<typeof ErrorBody>): RecordInput => ({ kind: 'error', error: b }),
  },
  {
    path: 'history',
    schema: HistoryBody,
    summary: 'record an agent_history line',
    input: (b: z.infer<typeof HistoryBody>): RecordInput => ({ kind: 'history', ...b }),
  },
  {
    path: 'requests',
    schema: RequestBody,
    summary:
      "record what the user asked (the first request becomes the workflow's issue; the same text again writes nothing)",
    input: (b: z.infer<typeof RequestBody>): RecordInput => ({ kind: 'request', ...b }),
  },
  {
    path: 'test-runs',
    schema: TestRunBody,
    summary: 'record a test run and the TDD phase',
    input: (b: z.infer<typeof TestRunBody>): RecordInput => ({ kind: 'test', test: b }),
  },
  {
    path: 'usage',
    schema: UsageBody,
    summary: "record the session's usage so far (totals, not increments)",
    input: (b: z.infer<typeof UsageBody>): RecordInput => ({ kind: 'usage', usage: b }),
  },
  {
    path: 'reviewer-feedback',
    schema: FeedbackBody,
    summary: 'record reviewer feedback',
    input: (b: z.infer<typeof FeedbackBody>): RecordInput => ({ kind: 'feedback', feedback: b }),
  },
] as const;

/** Tasks (start, done, fail, block, unblock, skip) and records (decisions, errors, history, tests, usage, reviews). */
export function registerTaskRecordRoutes({ app, client }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/tasks/{taskId}/{action}',
      tags: ['tasks'],
      summary: 'move a task: start, done (snapshot + checkpoint), fail, block, unblock, skip',
      request: { params: TaskActionParams, ...cwdHeaders, body: jsonBody(NoteBody) },
      responses: responses(TaskResult, 'the task and the workflow status after the move'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      const out = await client.task(refOf(c, p.id), p.action, p.taskId, c.req.valid('json').note ?? null);
      return c.json(out as never, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/tasks',
      tags: ['tasks'],
      summary: 'add a task to the plan (task.added)',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(AddTaskBody) },
      responses: responses(TaskResult, 'the new task and the workflow status', 201),
    }),
    async (c) => {
      const out = await client.addTask(refOf(c, c.req.valid('param').id), c.req.valid('json'));
      return c.json(out as never, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/agent-tasks',
      tags: ['tasks'],
      summary: "follow the agent's own task list in the task graph (calls already applied write nothing)",
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(SyncAgentTasksBody) },
      responses: responses(AgentTaskSyncResult, 'the tasks added, started, completed and skipped'),
    }),
    async (c) => {
      const out = await client.syncAgentTasks(refOf(c, c.req.valid('param').id), c.req.valid('json'));
      return c.json(out as never, 200);
    },
  );

  for (const r of recordRoutes) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/workflows/{id}/${r.path}`,
        tags: ['records'],
        summary: r.summary,
        request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(r.schema) },
        responses: responses(RecordResult, 'the stored record', 201),
      }),
      async (c) => {
        const body = c.req.valid('json') as never;
        const out = await client.record(refOf(c, c.req.valid('param').id), r.input(body));
        return c.json(out as never, 201);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/errors/{errorId}/resolve',
      tags: ['records'],
      summary: 'set the resolution of a recorded error',
      request: { params: ResolveErrorParams, ...cwdHeaders, body: jsonBody(ResolveErrorBody) },
      responses: responses(Loose, 'the updated error'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      const b = c.req.valid('json');
      return c.json(
        (await client.resolveError(refOf(c, p.id), p.errorId, b.resolution, b.notes)) as never,
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/reviewer-feedback/{reviewId}/addressed',
      tags: ['records'],
      summary: 'mark reviewer feedback addressed',
      request: { params: ReviewParams, ...cwdHeaders },
      responses: responses(Loose, 'done'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json((await client.addressFeedback(refOf(c, p.id), p.reviewId)) as never, 200);
    },
  );
}
