import type { Context, MiddlewareHandler } from 'hono';
import { errorBody } from '../http/errors.js';
import { sameToken } from '../../config/token-file.js';

/** Paths served without a token: health checks, and the dashboard's static files (it asks for the token itself). */
export const isPublic = (path: string) =>
  path === '/healthz' ||
  path === '/readyz' ||
  (!path.startsWith('/api/') &&
    path !== '/api' &&
    path !== '/ws' &&
    path !== '/metrics' &&
    path !== '/openapi.json');

/**
 * Requires `Authorization: Bearer <token>` on the API, /metrics, /openapi.json and /ws. WebSocket clients (browsers
 * cannot set headers) may pass it as `?token=` or as a `Sec-WebSocket-Protocol` entry `baton.token.<token>`.
 */
export function bearerAuth(tokenNow: (() => string) | null): MiddlewareHandler {
  return async (c, next) => {
    if (tokenNow === null || isPublic(c.req.path)) return next();
    const token = tokenNow();
    const given = givenToken(c);
    if (given === null || !sameToken(given, token)) {
      c.header('WWW-Authenticate', 'Bearer realm="baton"');
      return c.json(
        errorBody(
          'unauthorized',
          given === null
            ? 'missing bearer token: send Authorization: Bearer <token> (print it with `baton token` where the server runs)'
            : 'wrong bearer token (print the right one with `baton token` where the server runs)',
        ),
        401,
      );
    }
    return next();
  };
}

/** The token a request gives: its bearer header, or on /ws its `?token=` or `baton.token.<token>` subprotocol. */
export function givenToken(c: Context): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  if (match) return match[1]!;
  if (c.req.path !== '/ws') return null;
  const query = c.req.query('token');
  if (query !== undefined) return query;
  const protocols = (c.req.header('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  const fromProtocol = protocols.find((p) => p.startsWith('baton.token.'));
  return fromProtocol ? fromProtocol.slice('baton.token.'.length) : null;
}
