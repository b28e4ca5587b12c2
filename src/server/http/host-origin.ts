import type { MiddlewareHandler } from 'hono';
import type { RequestGuard } from '../../config/request-guard.js';
import { errorBody } from './errors.js';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const hostHint =
  'open the server by the address it listens on, or allow the name with --allow-host (variable BATON_ALLOWED_HOSTS, config allowed_hosts)';
const originHint =
  'only the server’s own pages may do this; allow another origin with --allow-origin (variable BATON_ALLOWED_ORIGINS, config allowed_origins)';

/**
 * Refuses (403) a request whose `Host` does not name this server (DNS rebinding), and a state-changing request
 * (POST, PUT, PATCH, DELETE) or a `/ws` connection from a foreign `Origin` (cross-site requests: a page elsewhere
 * driving or reading the server). Runs before authentication, in every mode, `--no-auth` included.
 */
export function hostAndOrigin(guard: RequestGuard): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    const badHost = guard.host(host);
    if (badHost) return c.json(errorBody('forbidden', `${badHost}; ${hostHint}`), 403);
    if (c.req.path === '/ws' || stateChanging.has(c.req.method)) {
      const badOrigin = guard.origin(c.req.header('origin'), host);
      if (badOrigin) return c.json(errorBody('forbidden', `${badOrigin}; ${originHint}`), 403);
    }
    return next();
  };
}
