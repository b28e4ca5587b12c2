import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
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
import { AgentTaskSyncResult, RecordResult, TaskResult } from './response-schemas.js';
import { FeedbackAddressedResult, ResolveErrorResult } from './result-schemas.js';

/** The route that records one kind: its path segment, body schema and summary. */
const recordRoute = <S extends z.ZodType>(path: string, schema: S, summary: string) =>
  createRoute({
    method: 'post',
    path: `/api/workflows/{id}/${path}`,
    tags: ['records'],
    summary,
    request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(schema) },
    responses: responses(RecordResult, 'the stored record', 201),
  });

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
      return c.json(out, 200);
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
      return c.json(out, 201);
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
      return c.json(out, 200);
    },
  );

  /** One route per record kind; each turns its body into the client's RecordInput. */
  const record = async <I extends RecordInput>(c: Context, id: string, input: I) =>
    c.json(await client.record(refOf(c, id), input), 201);
  const decisions = recordRoute(
    'decisions',
    DecisionBody,
    'record a decision (with rationale and alternatives)',
  );
  app.openapi(decisions, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'decision', decision: c.req.valid('json') }),
  );
  const errors = recordRoute('errors', ErrorBody, 'record an error and its resolution');
  app.openapi(errors, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'error', error: c.req.valid('json') }),
  );
  const history = recordRoute('history', HistoryBody, 'record an agent_history line');
  app.openapi(history, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'history', ...c.req.valid('json') }),
  );
  const requests = recordRoute(
    'requests',
    RequestBody,
    "record what the user asked (the first request becomes the workflow's issue; the same text seen again, by its hook and its transcript or without a time, writes nothing)",
  );
  app.openapi(requests, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'request', ...c.req.valid('json') }),
  );
  const tests = recordRoute('test-runs', TestRunBody, 'record a test run and the TDD phase');
  app.openapi(tests, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'test', test: c.req.valid('json') }),
  );
  const usage = recordRoute('usage', UsageBody, "record the session's usage so far (totals, not increments)");
  app.openapi(usage, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'usage', usage: c.req.valid('json') }),
  );
  const feedback = recordRoute('reviewer-feedback', FeedbackBody, 'record reviewer feedback');
  app.openapi(feedback, async (c) =>
    record(c, c.req.valid('param').id, { kind: 'feedback', feedback: c.req.valid('json') }),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/errors/{errorId}/resolve',
      tags: ['records'],
      summary: 'set the resolution of a recorded error',
      request: { params: ResolveErrorParams, ...cwdHeaders, body: jsonBody(ResolveErrorBody) },
      responses: responses(ResolveErrorResult, 'the updated error'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      const b = c.req.valid('json');
      return c.json(await client.resolveError(refOf(c, p.id), p.errorId, b.resolution, b.notes), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/reviewer-feedback/{reviewId}/addressed',
      tags: ['records'],
      summary: 'mark reviewer feedback addressed',
      request: { params: ReviewParams, ...cwdHeaders },
      responses: responses(FeedbackAddressedResult, 'done'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await client.addressFeedback(refOf(c, p.id), p.reviewId), 200);
    },
  );
}
