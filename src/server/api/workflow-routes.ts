import { createRoute, z } from '@hono/zod-openapi';
import { invalidInput, statusList } from '../../core/index.js';
import {
  askerOf,
  assertDirectory,
  cwdHeaders,
  cwdOf,
  jsonBody,
  refOf,
  responses,
  youOf,
  type RouteDeps,
} from './define.js';
import {
  CleanupBody,
  CreateWorkflowBody,
  ListQuery,
  AbandonBody,
  CompleteBody,
  RebuildBody,
  WorkflowParams,
} from './request-schemas.js';
import {
  AlsoOpenList,
  ExecutorList,
  SessionsTable,
  Status,
  WorkflowList,
  WorkflowView,
} from './response-schemas.js';
import { CleanupResult, Standing } from './result-schemas.js';

const tags = ['workflows'];

/**
 * Workflows: create, list (status and worktree filters), get, status, context, abandon, complete, cleanup, rebuild.
 */
export function registerWorkflowRoutes({ app, client, watch, you }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows',
      tags,
      summary: 'create a workflow with its task graph',
      request: { ...cwdHeaders, body: jsonBody(CreateWorkflowBody) },
      responses: responses(z.object({ id: z.string(), workflow: WorkflowView }), 'the new workflow', 201),
    }),
    async (c) => {
      const body = c.req.valid('json');
      const cwd = body.cwd ?? cwdOf(c);
      if (body.worktree) assertDirectory(body.worktree, 'worktree');
      if (body.cwd) assertDirectory(body.cwd, 'cwd');
      if (!body.worktree && !cwd)
        throw invalidInput('give `worktree` or `cwd` (or the X-Baton-Cwd header): where the workflow runs', {
          issues: [{ path: 'body.worktree', message: 'required when there is no cwd' }],
        });
      const w = await client.create({ ...body, cwd, worktree: body.worktree });
      return c.json({ id: w.id, workflow: w }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows',
      tags,
      summary: 'list workflows, newest first; filter by status and worktree',
      request: { query: ListQuery },
      responses: responses(WorkflowList, 'the workflows'),
    }),
    async (c) => {
      const q = c.req.valid('query');
      const status = q.status === undefined ? undefined : statusList(q.status, 'query.status');
      const workflows = await client.list({
        ...(status ? { status } : {}),
        ...(q.worktree ? { worktree: q.worktree } : {}),
      });
      return c.json({ workflows }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}',
      tags,
      summary: 'one workflow',
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        query: z.strictObject({
          ask: z.enum(['true', 'false']).optional().openapi({
            description:
              '`true` with `current`: among several workflows that each follow an agent conversation, asks which (`ambiguous`, the candidates listed), as a resume does, instead of taking the one whose conversation was at work last: for what starts or queues an agent run on it (`baton run`, `baton submit`)',
          }),
        }),
      },
      responses: responses(
        z.object({ workflow: WorkflowView, also_open: AlsoOpenList }),
        'the workflow (and the others `current` passed over, as the status names them)',
      ),
    }),
    async (c) => {
      const { workflow, also_open } = await client.taken(refOf(c, c.req.valid('param').id), {
        ask: c.req.valid('query').ask === 'true',
      });
      return c.json({ workflow, ...(also_open.length ? { also_open } : {}) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/standing',
      tags,
      summary: "whether the workflow's work is on another branch than the one its worktree has checked out",
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(Standing, 'where it stands'),
    }),
    async (c) => c.json(await client.standing(refOf(c, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/status',
      tags,
      summary: 'status: counts, tasks, runnable tasks, snapshots, checkpoints, usage, warnings',
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(Status, 'the status'),
    }),
    async (c) => {
      const s = await client.status(refOf(c, c.req.valid('param').id));
      return c.json(
        {
          ...s,
          ...(watch?.status(s) ?? { gone_agents: [], unread_transcripts: [], transcripts_not_read: [] }),
          ...(await youOf({ you }, c)),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/abandon',
      tags,
      summary: 'abandon: cancelled, never offered for resume again',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(AbandonBody) },
      responses: responses(z.object({ workflow: WorkflowView }), 'the abandoned workflow'),
    }),
    async (c) => {
      const b = c.req.valid('json');
      // who asks: a teammate's workflow is refused unless `theirs`, and the event records them
      const by = { identity: await askerOf({ you }, c), theirs: b.theirs };
      const w = await client.abandon(refOf(c, c.req.valid('param').id), b.reason, by);
      return c.json({ workflow: w }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/complete',
      tags,
      summary:
        'complete: the work is done (a workflow in progress), never offered for resume again; tasks not done are refused unless force',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(CompleteBody) },
      responses: responses(z.object({ workflow: WorkflowView }), 'the completed workflow'),
    }),
    async (c) => {
      const w = await client.complete(refOf(c, c.req.valid('param').id), c.req.valid('json'));
      return c.json({ workflow: w }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sessions',
      tags: ['sessions'],
      summary: 'every workflow with its step x/y, status and whether it can be resumed',
      responses: responses(SessionsTable, 'the sessions table'),
    }),
    // each row says what it waits for its user to look at (a glance at the list tells which one needs them), with the
    // agents this machine's hooks saw go, as its own page says them
    async (c) =>
      c.json(
        {
          sessions: await client.sessions(watch ? { goneAgents: watch.goneAgents } : {}),
          ...(await youOf({ you }, c)),
        },
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/executors',
      tags: ['sessions'],
      summary: "every executor (executors_running): where each session's agent runs, its state and heartbeat",
      responses: responses(ExecutorList, 'the executors'),
    }),
    async (c) => c.json(await client.executors(), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/cleanup',
      tags: ['maintenance'],
      summary: 'delete finished workflows not touched for older_than_ms',
      request: { body: jsonBody(CleanupBody) },
      responses: responses(CleanupResult, 'what was (or would be) removed'),
    }),
    async (c) => {
      const b = c.req.valid('json');
      return c.json(await client.cleanup({ olderThanMs: b.older_than_ms, dryRun: b.dry_run }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rebuild',
      tags: ['maintenance'],
      summary: 'recompute the query tables from the event log',
      request: { body: jsonBody(RebuildBody) },
      responses: responses(z.object({ workflows: z.number(), events: z.number() }), 'what was rebuilt'),
    }),
    async (c) => c.json(await client.rebuild(c.req.valid('json').workflow_id), 200),
  );
}
