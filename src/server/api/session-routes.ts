import { createRoute, z } from '@hono/zod-openapi';
import { askerOf, cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import {
  IdentityQuery,
  PauseBody,
  RecoverBody,
  ResumeBody,
  SessionParams,
  WorkflowParams,
} from './request-schemas.js';
import {
  PauseResult,
  RecoveryPlan,
  ResumeOutcome,
  ResumeResult,
  SessionStatus,
  SessionTimeline,
} from './response-schemas.js';

const tags = ['sessions'];

/** Pause, resume, interrupt, recovery, and the session status of the session-resumption design. */
export function registerSessionRoutes({ app, client, you }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/pause',
      tags,
      summary: 'pause at the next task boundary (now with force); idempotent',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(PauseBody) },
      responses: responses(
        PauseResult,
        'paused, requested (waiting for running tasks), already requested (the first request stands) or already paused',
      ),
    }),
    async (c) => {
      const b = c.req.valid('json');
      const out = await client.pause(
        refOf(c, c.req.valid('param').id),
        {
          reason: b.reason,
          force: b.force,
          ...(b.timeout_ms ? { timeout_ms: b.timeout_ms } : {}),
          ...(b.asked_by ? { asked_by: b.asked_by } : {}),
        },
        // who asks: a teammate's workflow is refused unless `theirs`, and the pause records them
        { identity: await askerOf({ you }, c), theirs: b.theirs },
      );
      return c.json(out, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/resume',
      tags,
      summary:
        'start the next session from the latest snapshot and return its compiled resume context; on a workflow in progress with a pause requested, withdraw that request',
      // the body is optional: `identity`, whose a teammate's is told by (its git state not read from here)
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        body: { ...jsonBody(ResumeBody), required: false },
      },
      responses: responses(
        ResumeOutcome,
        'the new session and its context (resumed), or the pause request withdrawn (pause_withdrawn)',
      ),
    }),
    async (c) => {
      const b = c.req.valid('json');
      const identity = await askerOf({ you }, c, b.identity);
      return c.json(
        await client.resume(refOf(c, c.req.valid('param').id), { identity, theirs: b.theirs }),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/interrupt',
      tags,
      summary: 'mark the workflow interrupted (it stopped without being asked): crash snapshot',
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        body: jsonBody(z.strictObject({ reason: z.string().min(1).max(2000).default('interrupted') })),
      },
      responses: responses(
        z.object({ workflow_id: z.string(), status: z.string(), snapshot_id: z.string() }),
        'interrupted',
      ),
    }),
    async (c) =>
      c.json(await client.interrupt(refOf(c, c.req.valid('param').id), c.req.valid('json').reason), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/recovery-options',
      tags: ['recovery'],
      summary:
        "the recovery options with their data-loss estimates; a teammate's (not `identity`'s) checkpoint plans no git restore from here",
      request: { params: WorkflowParams, ...cwdHeaders, query: IdentityQuery },
      responses: responses(RecoveryPlan, 'the recovery plan'),
    }),
    async (c) => {
      const identity = await askerOf({ you }, c, c.req.valid('query').identity);
      return c.json(await client.recoveryOptions(refOf(c, c.req.valid('param').id), { identity }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/recover',
      tags: ['recovery'],
      summary: 'recover from a checkpoint, the live state, or fresh, and start the next session',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(RecoverBody) },
      responses: responses(ResumeResult, 'the new session and its context'),
    }),
    async (c) => {
      const b = c.req.valid('json');
      const identity = await askerOf({ you }, c, b.identity);
      const out = await client.recover(refOf(c, c.req.valid('param').id), b.option, b.checkpoint, {
        identity,
        theirs: b.theirs,
      });
      return c.json(out, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/sessions',
      tags,
      summary: 'the session timeline: every session with its status, oldest first',
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(SessionTimeline, 'the sessions'),
    }),
    async (c) => c.json(await client.sessionTimeline(refOf(c, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/session-status',
      tags,
      summary: 'the status of the latest session (is_agent_running, is_resumable, needs_resume, ...)',
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(SessionStatus, 'the session status'),
    }),
    async (c) => c.json(await client.sessionStatus(refOf(c, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/sessions/{n}/status',
      tags,
      summary: 'the status of session n',
      request: { params: SessionParams, ...cwdHeaders },
      responses: responses(SessionStatus, 'the session status'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await client.sessionStatus(refOf(c, p.id), p.n), 200);
    },
  );
}
