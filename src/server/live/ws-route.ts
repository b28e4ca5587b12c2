import type { OpenAPIHono } from '@hono/zod-openapi';
import type { UpgradeWebSocket } from 'hono/ws';
import { z } from 'zod';
import { invalidInput, notFound } from '../../core/index.js';
import { validationError } from '../http/errors.js';
import { givenToken } from '../auth/bearer.js';
import type { WsHub } from './ws-hub.js';
import {
  LiveError,
  LiveEventMessage,
  LivePong,
  SubscriptionCaughtUp,
  SubscriptionReset,
  wsDescription,
} from './live-messages.js';

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Connection parameters and `subscribe` messages: workflow, session (with workflow), since (a position). */
const SubscribeInput = z
  .object({
    workflow_id: z.string().regex(idPattern, 'not a workflow id').nullable().default(null),
    session_number: z.coerce.number().int().positive().nullable().default(null),
    since: z.coerce.number().int().nonnegative().nullable().default(null),
  })
  .refine((s) => s.session_number === null || s.workflow_id !== null, {
    message: 'a session subscription needs the workflow too',
    path: ['session_number'],
  });

/** The subscription the connection's query asks for (`workflow`, `session`, `since`); a 400 when it is malformed. */
function subscriptionOf(q: Record<string, string>): z.infer<typeof SubscribeInput> {
  const parsed = SubscribeInput.safeParse({
    workflow_id: q.workflow ?? null,
    session_number: q.session ?? null,
    since: q.since ?? null,
  });
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

const Message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe') }).catchall(z.unknown()),
  z.object({ type: z.literal('ping') }),
]);

/** An `error` message for the client: its message refused, the connection kept. */
const failure = (code: string, message: string) =>
  JSON.stringify({
    type: 'error',
    workflow_id: null,
    session_number: null,
    task_id: null,
    error: { code, message },
  });

/**
 * `GET /ws?workflow=<id>&session=<n>&since=<position>` (each optional; the token as `?token=` or a
 * `baton.token.<token>` subprotocol). Messages from the client: `{"type":"subscribe", workflow_id?,
 * session_number?, since?}` to change the subscription, `{"type":"ping"}`.
 */
export function registerWsRoute(
  app: OpenAPIHono,
  upgrade: UpgradeWebSocket,
  hub: WsHub,
  exists: (workflowId: string) => Promise<boolean>,
  /** The server asks for a token: each socket keeps the one it gave, so a rotation closes it. */
  withToken: boolean,
) {
  // a subscription to a workflow that does not exist would wait for its events forever, silently (a mistyped id)
  const unknown = (id: string) =>
    `workflow ${id} does not exist (GET /api/workflows lists the workflows); the subscription is unchanged`;
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/ws',
    tags: ['live'],
    summary: 'live events (WebSocket)',
    description: wsDescription,
    responses: {
      101: {
        description: 'switching to the WebSocket protocol; each message is one of these JSON objects',
        content: {
          'application/json': {
            schema: z.union([LiveEventMessage, SubscriptionCaughtUp, SubscriptionReset, LiveError, LivePong]),
          },
        },
      },
      400: { description: 'bad query parameters, or not a WebSocket upgrade' },
      401: { description: 'missing or wrong token' },
      404: { description: 'the workflow asked for does not exist' },
      403: { description: 'a foreign Origin, or a Host that does not name this server' },
    },
  });
  app.get(
    '/ws',
    async (c, next) => {
      const asked = subscriptionOf(c.req.query());
      if (c.req.header('upgrade')?.toLowerCase() !== 'websocket')
        throw invalidInput('/ws is a WebSocket endpoint: connect with a WebSocket client');
      if (asked.workflow_id !== null && !(await exists(asked.workflow_id)))
        throw notFound(
          `workflow ${asked.workflow_id} does not exist (GET /api/workflows lists the workflows)`,
          {
            workflow_id: asked.workflow_id,
          },
        );
      return next();
    },
    upgrade((c) => {
      const first = subscriptionOf(c.req.query());
      const token = withToken ? givenToken(c) : null;
      let subscriber: ReturnType<WsHub['add']> | null = null;
      let checked: Promise<void> = Promise.resolve();
      return {
        onOpen(_evt, ws) {
          const raw = ws.raw as { bufferedAmount?: number } | undefined;
          subscriber = hub.add(
            {
              send: (t) => ws.send(t),
              close: (code, reason) => ws.close(code, reason),
              bufferedAmount: () => raw?.bufferedAmount ?? 0,
            },
            token,
          );
          void hub.subscribe(
            subscriber,
            { workflow_id: first.workflow_id, session_number: first.session_number },
            first.since,
          );
        },
        onMessage(evt, ws) {
          if (!subscriber) return;
          let msg: unknown;
          try {
            msg = JSON.parse(String(evt.data));
          } catch {
            msg = null;
          }
          const m = Message.safeParse(msg);
          const sub = m.success && m.data.type === 'subscribe' ? SubscribeInput.safeParse(m.data) : null;
          if (m.success && m.data.type === 'ping') {
            ws.send(JSON.stringify({ type: 'pong', workflow_id: null, session_number: null, task_id: null }));
          } else if (sub?.success) {
            const d = sub.data;
            const to = subscriber;
            // in the order they came: a later subscribe is not overtaken by an earlier one still checking
            checked = checked.then(async () => {
              if (d.workflow_id !== null && !(await exists(d.workflow_id).catch(() => true))) {
                ws.send(failure('not_found', unknown(d.workflow_id)));
                return;
              }
              void hub.subscribe(
                to,
                { workflow_id: d.workflow_id, session_number: d.session_number },
                d.since,
              );
            });
          } else {
            const error =
              sub && !sub.success
                ? validationError(sub.error, 'message').message
                : 'send {"type":"subscribe",...} or {"type":"ping"}';
            ws.send(failure('invalid_input', error));
          }
        },
        onClose() {
          if (subscriber) hub.remove(subscriber);
        },
      };
    }),
  );
}
