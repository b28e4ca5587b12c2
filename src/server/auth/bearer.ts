import type { MiddlewareHandler } from 'hono';
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
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    let given = match?.[1] ?? null;
    if (given === null && c.req.path === '/ws') {
      given = c.req.query('token') ?? null;
      const protocols = (c.req.header('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
      const fromProtocol = protocols.find((p) => p.startsWith('baton.token.'));
      if (given === null && fromProtocol) given = fromProtocol.slice('baton.token.'.length);
    }
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
