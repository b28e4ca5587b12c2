import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { ZodType } from 'zod';

interface RouteDefinition {
  type: string;
  route?: {
    method: string;
    path: string;
    responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  };
}

/** `/api/workflows/{id}/pause` (OpenAPI) as Hono spells it: `/api/workflows/:id/pause`. */
const honoPath = (openApiPath: string) => openApiPath.replace(/\{([^}]+)\}/g, ':$1');

function isZod(value: unknown): value is ZodType {
  return typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function';
}

/** The JSON response schemas the app's routes declare, by `METHOD /hono/:path STATUS`. */
export function responseSchemas(app: OpenAPIHono): Map<string, ZodType> {
  const m = new Map<string, ZodType>();
  for (const d of app.openAPIRegistry.definitions as RouteDefinition[]) {
    if (d.type !== 'route' || !d.route) continue;
    for (const [status, r] of Object.entries(d.route.responses ?? {})) {
      const schema = r.content?.['application/json']?.schema;
      if (isZod(schema)) m.set(`${d.route.method.toUpperCase()} ${honoPath(d.route.path)} ${status}`, schema);
    }
  }
  return m;
}

/**
 * Checks every JSON response against the schema its route declares in the OpenAPI document (the schemas the
 * dashboard's types come from). A response that does not match becomes a 500 naming the route, the status and the
 * first mismatch, so a test that meets it fails. On in tests (startTestServer) and with BATON_CHECK_RESPONSES=1.
 */
export function responseCheck(app: OpenAPIHono): MiddlewareHandler {
  let schemas: Map<string, ZodType> | null = null;
  return async (c, next) => {
    await next();
    if (!c.res.headers.get('content-type')?.includes('application/json')) return;
    const route = matchedRoutes(c)[c.req.routeIndex];
    if (!route) return;
    schemas ??= responseSchemas(app);
    const key = `${c.req.method} ${route.path} ${c.res.status}`;
    const schema = schemas.get(key);
    if (!schema) return;
    const body: unknown = await c.res.clone().json();
    const parsed = schema.safeParse(body);
    if (parsed.success) return;
    const issue = parsed.error.issues[0];
    const message = `the response of ${key} does not match its schema: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`;
    console.error(`baton serve: ${message}`);
    c.res = new Response(JSON.stringify({ code: 'internal', message }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  };
}
