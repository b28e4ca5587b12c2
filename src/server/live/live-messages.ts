import { z } from '@hono/zod-openapi';

/**
 * What `/ws` sends, documented in the OpenAPI document under `GET /ws` (and typed for the dashboard). Every
 * message has `type`, `workflow_id`, `session_number` and `task_id`; events also have `position` and the rest.
 */
const base = {
  workflow_id: z.string().nullable(),
  session_number: z.number().int().nullable(),
  task_id: z.string().nullable(),
};

export const LiveEventMessage = z
  .object({
    type: z.string().openapi({ example: 'task.started' }),
    position: z
      .number()
      .int()
      .openapi({ description: 'the event’s store-wide position (use it as `since`)' }),
    ...base,
    seq: z.number().int().nullable(),
    at: z.string(),
    actor: z.string().nullable(),
    data: z.unknown(),
  })
  .openapi('LiveEvent', {
    description:
      'an event of the log, or a derived one (`session.state_changed`, `capacity.warned`) sharing its position',
  });

export const SubscriptionCaughtUp = z
  .object({ type: z.literal('subscription.caught_up'), ...base, position: z.number().int() })
  .openapi('SubscriptionCaughtUp', {
    description: 'the replay from `since` is done; live events follow. `position`: the last one delivered',
  });

export const SubscriptionReset = z
  .object({
    type: z.literal('subscription.reset'),
    ...base,
    position: z.number().int().openapi({ description: 'where the event log now ends' }),
    since: z.number().int().openapi({ description: 'the position the client asked for' }),
    reason: z.string(),
  })
  .openapi('SubscriptionReset', {
    description:
      '`since` is beyond the end of the log (the store was rebuilt or replaced): the client must refetch its views ' +
      'and take `position` as its last position; events after it follow',
  });

export const LiveError = z
  .object({
    type: z.literal('error'),
    ...base,
    error: z.object({ code: z.string(), message: z.string() }),
  })
  .openapi('LiveError', {
    description: 'a bad message from the client, or a failed replay (then closed 1011)',
  });

export const LivePong = z.object({ type: z.literal('pong'), ...base }).openapi('LivePong');

export type SubscriptionResetMessage = z.infer<typeof SubscriptionReset>;
export type SubscriptionCaughtUpMessage = z.infer<typeof SubscriptionCaughtUp>;

export const wsDescription = [
  'WebSocket (upgrade): live events. Query: `workflow`, `session` (with `workflow`), `since` (a position), each',
  'optional; the token as `?token=`, a `baton.token.<token>` subprotocol beside `baton.v1`, or the Authorization',
  'header. A foreign `Origin` is refused (403), a workflow that does not exist too (404; to a `subscribe` message, an',
  '`error` message, the subscription unchanged). Client messages: `{"type":"subscribe", workflow_id?, session_number?,',
  'since?}`, `{"type":"ping"}`. Server messages: LiveEvent, SubscriptionCaughtUp, SubscriptionReset, LiveError,',
  'LivePong (components of this document). Close codes: 1001 server shutting down; 1009 a client frame over the',
  "server's limit (--max-frame, default 1 MiB); 1011 the replay failed, reconnect with `since`; 1013 the client",
  'fell too far behind, reconnect with `since`; 1008 the server token was rotated, reconnect with the new one.',
].join(' ');
