import { createRoute, z } from '@hono/zod-openapi';
import { askerOf, cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import { Identity, WorkflowParams } from './request-schemas.js';
import { CheckpointRestore, EventHistory, TaskLog, TaskLogList } from './response-schemas.js';

export const RestoreBody = z
  .strictObject({
    checkpoint: z.string().min(1).max(200).nullable().default(null),
    stash: z.boolean().default(false),
    force: z.boolean().default(false),
    dry_run: z.boolean().default(false),
    confirm: z.boolean().default(false),
    identity: Identity,
  })
  .openapi('RestoreInput');

const HistoryQuery = z.strictObject({
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

const LogParams = WorkflowParams.extend({
  name: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .max(300),
});
const LogQuery = z.strictObject({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024)
    .default(256 * 1024),
});

/** What the dashboard steers with: a checkpoint restore (planned, then confirmed), the event history, task logs. */
export function registerRunRoutes({ app, client, you }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/restore',
      tags: ['recovery'],
      summary:
        'back to a checkpoint (workflow state and worktree); a restore that moves the branch needs confirm: true, and keeps the commits that leave it on a backup ref',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(RestoreBody) },
      responses: responses(CheckpointRestore, 'the plan, and the new session when it was done'),
    }),
    async (c) => {
      const b = c.req.valid('json');
      // a teammate's checkpoint (another person's than the asker's: the CLI's own, else the one the server serves; none:
      // told by the clone at its worktree's path here) is refused by the service before anything is planned
      const out = await client.restoreCheckpoint(refOf(c, c.req.valid('param').id), b.checkpoint, {
        stash: b.stash,
        force: b.force,
        dryRun: b.dry_run,
        confirm: b.confirm,
        identity: await askerOf({ you }, c, b.identity),
        from: 'this server',
      });
      return c.json(out, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/events',
      tags: ['workflows'],
      summary: "the workflow's event history, oldest first after a seq (snapshots summarised)",
      request: { params: WorkflowParams, ...cwdHeaders, query: HistoryQuery },
      responses: responses(EventHistory, 'the events'),
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await client.history(refOf(c, c.req.valid('param').id), q.after, q.limit), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/logs',
      tags: ['workflows'],
      summary: "the task logs `baton run` keeps in the run folder (each agent run's output)",
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(TaskLogList, 'the logs, oldest first'),
    }),
    async (c) => c.json(await client.taskLogs(refOf(c, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/logs/{name}',
      tags: ['workflows'],
      summary: 'one task log from a byte offset (ask again from next_offset to follow a running task)',
      request: { params: LogParams, ...cwdHeaders, query: LogQuery },
      responses: responses(TaskLog, 'a slice of the log'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      const q = c.req.valid('query');
      return c.json(await client.taskLog(refOf(c, p.id), p.name, q.offset, q.limit), 200);
    },
  );
}
