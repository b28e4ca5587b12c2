import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { responseCheck, responseSchemas } from './response-check.js';

function appWith(body: unknown) {
  const app = new OpenAPIHono();
  app.use('*', responseCheck(app));
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/things/{id}',
      request: { params: z.object({ id: z.string() }) },
      responses: {
        200: {
          description: 'a thing',
          content: { 'application/json': { schema: z.object({ ok: z.boolean() }) } },
        },
      },
    }),
    (c) => c.json(body as never, 200),
  );
  return app;
}

describe('responseCheck', () => {
  it('passes a response that matches its declared schema', async () => {
    const r = await appWith({ ok: true }).request('/api/things/7');
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true });
  });

  it('turns a response that does not match into a 500 naming the route and the field', async () => {
    const r = await appWith({ ok: 'yes' }).request('/api/things/7');
    expect(r.status).toBe(500);
    expect(((await r.json()) as { message: string }).message).toMatch(
      /GET \/api\/things\/:id 200 does not match its schema: ok: /,
    );
  });

  it("finds the declared schemas of Baton's own routes", async () => {
    const { createApp } = await import('../app.js');
    const app = createApp({
      client: {} as never,
      events: { check: async () => undefined },
      token: null,
      metrics: { middleware: () => async (_c: unknown, next: () => Promise<void>) => next() } as never,
      webDir: '/nonexistent',
      maxBodyBytes: 1024,
      guard: { check: () => null } as never,
      ready: () => true,
      version: 'test',
    });
    const keys = [...responseSchemas(app).keys()];
    expect(keys.length).toBeGreaterThan(30);
    expect(keys).toContain('GET /api/workflows/:id/session-status 200');
  });
});
