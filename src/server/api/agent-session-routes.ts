import { createRoute, z } from '@hono/zod-openapi';
import { assertDirectory, cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import { AbsolutePath, WorkflowParams } from './request-schemas.js';
import {
  AgentSessionEnded,
  AgentTurnEnded,
  CheckpointIfDueResult,
  CompactionNoted,
  InjectedContext,
  StartResult,
  TrackResult,
} from './result-schemas.js';

const tags = ['agent sessions'];

/** A null session id (a hook payload without one) follows the open session instead of starting the next. */
const AgentRef = z.strictObject({
  name: z.string().min(1).max(100),
  session_id: z.string().min(1).max(500).nullable(),
});

const trackFields = {
  cwd: AbsolutePath,
  worktree: AbsolutePath.optional(),
  agent: AgentRef,
  auto_track: z.boolean(),
  resume: z.boolean(),
  link: z.boolean().optional(),
  follow_new: z.boolean().optional(),
};
const TrackBody = z
  .strictObject({ ...trackFields, tell_left_out: z.boolean().optional() })
  .openapi('TrackSession');
const StartBody = z
  .strictObject({
    ...trackFields,
    max_chars: z.number().int().min(1000).max(1_000_000),
    reason: z.string().min(1).max(500),
    fresh_start: z.boolean().optional(),
    active_elsewhere: z.boolean().optional(),
    active_elsewhere_unsure: z.boolean().optional(),
    conversations_over: z.record(z.string().min(1).max(500), z.string().max(200)).optional(),
    reopened: z.boolean().optional(),
  })
  .openapi('StartAgentSession');

const EndBody = z
  .strictObject({
    agent: z.strictObject({ name: z.string().min(1).max(100), session_id: z.string().min(1).max(500) }),
    reason: z.string().max(500).nullable(),
  })
  .openapi('EndAgentSession');

const TurnEndBody = z.strictObject({ agent: z.string().min(1).max(100) }).openapi('EndAgentTurn');

const InjectBody = z
  .strictObject({
    max_chars: z.number().int().min(1000).max(1_000_000),
    reason: z.string().min(1).max(500),
  })
  .openapi('InjectContext');

const CompactionBody = z
  .strictObject({
    agent: z.string().min(1).max(100),
    trigger: z.string().max(100).nullable(),
    summary: z.string().max(2_000_000).nullable(),
  })
  .openapi('Compaction');

const CheckpointIfDueBody = z
  .strictObject({
    name: z.string().min(1).max(100),
    interval_ms: z.number().int().min(0),
  })
  .openapi('CheckpointIfDue');

/** What agent hooks call when the CLI talks to a server (BATON_URL): the same client methods as in process. */
export function registerAgentSessionRoutes({ app, client }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/agent-sessions/track',
      tags,
      summary: "find or create the worktree's workflow and tie the agent's session to a Baton session",
      request: { body: jsonBody(TrackBody) },
      responses: responses(TrackResult, 'the workflow followed (null when untracked) and what happened'),
    }),
    async (c) => {
      const body = c.req.valid('json');
      assertDirectory(body.cwd, 'cwd');
      return c.json(await client.trackSession(body), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/agent-sessions/start',
      tags,
      summary: 'a session start: the workflow found or created, the session tied, the context handed over',
      request: { body: jsonBody(StartBody) },
      responses: responses(StartResult, 'the workflow followed and the context to inject (null when none)'),
    }),
    async (c) => {
      const body = c.req.valid('json');
      assertDirectory(body.cwd, 'cwd');
      return c.json(await client.startAgentSession(body), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/context/inject',
      tags,
      summary: 'the context for an agent session, fitted to max_chars; delivery and receipt recorded',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(InjectBody) },
      responses: responses(InjectedContext, 'the text to inject and its hash'),
    }),
    async (c) =>
      c.json(await client.injectContext(refOf(c, c.req.valid('param').id), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/compactions',
      tags,
      summary: 'the agent compacted its context (the next prompt or session start injects again)',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(CompactionBody) },
      responses: responses(CompactionNoted, 'noted'),
    }),
    async (c) =>
      c.json(await client.noteCompaction(refOf(c, c.req.valid('param').id), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/agent-sessions/end',
      tags,
      summary: "the agent's session ended (SessionEnd): the Baton session that follows it ends too",
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(EndBody) },
      responses: responses(AgentSessionEnded, 'whether a Baton session ended, and which'),
    }),
    async (c) =>
      c.json(await client.endAgentSession(refOf(c, c.req.valid('param').id), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/agent-sessions/turn-ended',
      tags,
      summary:
        "the agent's turn ended (Stop, StopFailure, SessionEnd): recorded once per turn; a pause that waited for it takes effect",
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(TurnEndBody) },
      responses: responses(
        AgentTurnEnded,
        'whether the end of a turn was recorded, and the pause it let take effect',
      ),
    }),
    async (c) =>
      c.json(await client.endAgentTurn(refOf(c, c.req.valid('param').id), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/checkpoints/if-due',
      tags,
      summary: 'a checkpoint only after real work since the last one, at most every interval_ms',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(CheckpointIfDueBody) },
      responses: responses(CheckpointIfDueResult, 'the checkpoint made (or null) and why'),
    }),
    async (c) =>
      c.json(await client.checkpointIfDue(refOf(c, c.req.valid('param').id), c.req.valid('json')), 200),
  );
}
