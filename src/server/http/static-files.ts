import type { MiddlewareHandler } from 'hono';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const notBuilt = `<!doctype html><meta charset="utf-8"><title>Baton</title>
<h1>Baton server</h1>
<p>The dashboard is not built in this copy (no <code>web/dist/</code>). The API is at <code>/api</code>, described
by <a href="/openapi.json">/openapi.json</a> (bearer token: <code>baton token</code>); live events at <code>/ws</code>.</p>`;

/**
 * The dashboard: files of `root` (web/dist) at `/`, with the single-page-app fallback to index.html for any other
 * GET that is not the API. No token is needed here; the dashboard asks for it and sends it to the API.
 */
export function staticFiles(root: string): MiddlewareHandler {
  const base = resolve(root);
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if ((method !== 'GET' && method !== 'HEAD') || path.startsWith('/api/') || path === '/ws') return next();
    const index = join(base, 'index.html');
    if (!existsSync(index)) return path === '/' ? c.html(notBuilt) : next();
    let rel: string;
    try {
      rel = decodeURIComponent(path);
    } catch {
      return next();
    }
    const file = resolve(base, `.${rel}`);
    const inside = file === base || file.startsWith(base + sep);
    const isFile = inside && !rel.includes('\0') && existsSync(file) && statSync(file).isFile();
    if (!isFile && extname(rel) && rel !== '/') return next();
    const target = isFile ? file : index;
    c.header('Content-Type', types[extname(target)] ?? 'application/octet-stream');
    c.header('Cache-Control', target === index ? 'no-cache' : 'public, max-age=3600');
    if (method === 'HEAD') return c.body(null);
    return c.body(new Uint8Array(readFileSync(target)));
  };
}
