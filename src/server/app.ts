import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { BatonError } from '../core/index.js';
import type { BatonClient } from '../client/baton-client.js';
import type { RequestGuard } from '../config/request-guard.js';
import type { EventFeed } from '../service/index.js';
import { registerAgentSessionRoutes } from './api/agent-session-routes.js';
import { registerContextRoutes } from './api/context-routes.js';
import { registerQueueRoutes } from './api/queue-routes.js';
import { registerRunRoutes } from './api/run-routes.js';
import { registerSessionRoutes } from './api/session-routes.js';
import { registerSnapshotRoutes } from './api/snapshot-routes.js';
import { registerTaskRecordRoutes } from './api/task-record-routes.js';
import { registerWorkflowRoutes } from './api/workflow-routes.js';
import { refOf, type AgentWatch, type ReadBeforeContext } from './api/define.js';
import { bearerAuth } from './auth/bearer.js';
import { errorBody, onError, sendError, validationError } from './http/errors.js';
import { hostAndOrigin } from './http/host-origin.js';
import { actorHeader, type ActingAs } from './http/actor-header.js';
import { identityHeader, type AskedByRun } from './http/identity-header.js';
import type { Metrics } from './http/metrics.js';
import { staticFiles } from './http/static-files.js';
import { responseCheck } from './http/response-check.js';

export interface AppOptions {
  client: BatonClient;
  /** The service's event log port: `/readyz` asks it whether the store answers. */
  events: Pick<EventFeed, 'check'>;
  /** The bearer token as it is now (`baton token --rotate` changes it); null only with `--no-auth` on loopback. */
  token: (() => string) | null;
  metrics: Metrics;
  /** The dashboard's built files (web/dist). */
  webDir: string;
  maxBodyBytes: number;
  /** The Host and Origin checks (src/config/request-guard.ts). */
  guard: RequestGuard;
  /** Whether the server is ready (the event tail started). */
  ready: () => boolean;
  version: string;
  /** Check every JSON response against its route's schema (tests; BATON_CHECK_RESPONSES=1). */
  checkResponses?: boolean;
  /** What the hooks of this machine saw of a workflow's agents, for its status (api/define.ts). */
  watch?: AgentWatch;
  /** Reads a workflow's unread transcripts of this machine before its context is compiled (api/define.ts). */
  readFirst?: ReadBeforeContext;
  /** The git identity of the person the server serves: whose workflows are theirs (api/define.ts). */
  you?: () => Promise<string | null>;
  /** Acts as the actor a request names (X-Baton-Actor); unset, the header is not read. */
  actingAs?: ActingAs;
  /** Works for the person a request names (X-Baton-Identity: whose work is whose); unset, the header is not read. */
  askedBy?: AskedByRun;
}

export const openApiInfo = (version: string) => ({
  openapi: '3.1.0',
  info: {
    title: 'Baton API',
    version,
    description:
      'Keeps long AI coding-agent workflows alive. Every route but /healthz, /readyz and the dashboard needs ' +
      '`Authorization: Bearer <token>` (`baton token` prints it). Requests whose Host does not name the server, and ' +
      'state-changing requests or `/ws` connections from a foreign Origin, get 403 (docs/security.md). Live events: ' +
      'WebSocket `/ws` (its messages: `GET /ws`). `X-Baton-Actor: <name>` names who acts in what a request changes ' +
      "(the event log's `actor`; default the server's own): the CLI sends the actor it would act as on its own database. " +
      '`X-Baton-Identity: <git email, percent-encoded>` (empty: none set) names the person asking: whose a workflow is ' +
      "to them (`current`, a new workflow's owner, whose clone git state is read from); default the server's own.",
  },
  security: [{ bearerAuth: [] }],
});

/** A 409 carries the workflow's current state, so a client that lost a race sees what won. */
async function withCurrentState(c: Context, e: BatonError, client: BatonClient) {
  const id = c.req.param('id');
  if (!id) return e;
  try {
    const w = await client.get(refOf(c, id));
    const current = {
      id: w.id,
      status: w.status,
      version: w.version,
      pause_requested: w.pause_requested,
      tasks: w.tasks.map((t) => ({ id: t.id, status: t.status })),
    };
    return new BatonError(e.code, e.message, { ...e.details, current });
  } catch {
    return e;
  }
}

/** What a 413 says: the limit, and how to send less (or to raise it). */
function tooLarge(max: number): string {
  const mib = max / 1024 / 1024;
  const size =
    mib >= 1 ? ` (${+mib.toFixed(1)} MiB)` : max >= 1024 ? ` (${+(max / 1024).toFixed(1)} KiB)` : '';
  return (
    `request body over the server's limit of ${max} bytes${size}: send at most that much (cut the longest texts ` +
    '(a plan, descriptions, notes) down, or spread what the request carries over several), or raise the limit ' +
    'where the server runs (`baton serve --max-body <bytes>`, BATON_MAX_BODY or max_body_bytes)'
  );
}

/** The API answers under `/api` and, as the design documents spell it, without the prefix (`/workflows/{id}/pause`). */
const unprefixed = /^\/(workflows|snapshots|sessions|cleanup|rebuild)(\/|$)/;

/** A fetch handler that serves the unprefixed API paths as their `/api` twins. */
export function withUnprefixedApi(app: OpenAPIHono): (req: Request) => Response | Promise<Response> {
  return (req) => {
    const url = new URL(req.url);
    if (!unprefixed.test(url.pathname)) return app.fetch(req);
    url.pathname = `/api${url.pathname}`;
    return app.fetch(new Request(url, req));
  };
}

/** The Hono app: auth, limits, metrics, the API routes, /openapi.json, health checks and the dashboard. */
export function createApp(o: AppOptions): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success)
        throw validationError(result.error, result.target === 'json' ? 'body' : result.target);
    },
  });
  app.use('*', o.metrics.middleware());
  if (o.checkResponses) app.use('*', responseCheck(app));
  app.use('*', hostAndOrigin(o.guard));
  app.use('*', bearerAuth(o.token));
  if (o.actingAs) app.use('/api/*', actorHeader(o.actingAs));
  if (o.askedBy) app.use('/api/*', identityHeader(o.askedBy));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: o.maxBodyBytes,
      // The rest of the body is not read: the connection is closed so that no client reuses it, gently
      // (src/config/linger.ts) so that a client still sending the body reads this answer rather than a reset.
      onError: (c) =>
        c.json(
          errorBody('payload_too_large', tooLarge(o.maxBodyBytes), { max_body_bytes: o.maxBodyBytes }),
          413,
          { Connection: 'close' },
        ),
    }),
  );
  app.onError(async (e, c) => {
    if (BatonError.isInstance(e) && (e.code === 'invalid_transition' || e.code === 'conflict'))
      return sendError(c, await withCurrentState(c, e, o.client));
    return onError(e, c);
  });

  // says which server answers (a port found taken is told apart from another program's), never more
  app.get('/healthz', (c) => c.json({ ok: true, service: 'baton' }));
  // Unauthenticated: says ready or not, never what the database is (user, host, port, name, path); the cause of
  // an unavailable store goes to the server's log.
  app.get('/readyz', async (c) => {
    try {
      await o.events.check();
    } catch (e) {
      console.error(`baton serve: /readyz: the store is unavailable: ${(e as Error).message}`);
      return c.json({ ready: false, reason: 'store unavailable; see the server log' }, 503);
    }
    return o.ready() ? c.json({ ready: true }) : c.json({ ready: false, reason: 'starting' }, 503);
  });
  app.get('/metrics', async (c) =>
    c.text(await o.metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4' }),
  );

  const deps = {
    app,
    client: o.client,
    ...(o.watch ? { watch: o.watch } : {}),
    ...(o.readFirst ? { readFirst: o.readFirst } : {}),
    ...(o.you ? { you: o.you } : {}),
  };
  registerWorkflowRoutes(deps);
  registerTaskRecordRoutes(deps);
  registerSnapshotRoutes(deps);
  registerSessionRoutes(deps);
  registerContextRoutes(deps);
  registerRunRoutes(deps);
  registerAgentSessionRoutes(deps);
  registerQueueRoutes(deps);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'the token from `baton token` ($BATON_HOME/token)',
  });
  app.doc31('/openapi.json', openApiInfo(o.version));

  app.all('/api/*', (c) => {
    throw new BatonError(
      'not_found',
      `no route ${c.req.method} ${c.req.path}; see /openapi.json (with the bearer token: \`baton token\`)`,
    );
  });
  app.use('*', staticFiles(o.webDir));
  app.notFound((c) => sendError(c, new BatonError('not_found', `nothing at ${c.req.path}`)));
  return app;
}
