import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/server/index.js';
import type { BatonService } from '../../src/service/index.js';
import { tempDir } from './git-repo.js';
import { makeService } from './service.js';

export interface TestServer {
  server: RunningServer;
  service: BatonService;
  home: string;
  api: (
    path: string,
    init?: RequestInit & { json?: unknown; auth?: boolean; cwd?: string },
  ) => Promise<Response>;
  close: () => Promise<void>;
}

/** A real Baton server on a free loopback port, over a real SQLite file, in this process. */
export async function startTestServer(
  opts: { webDir?: string; maxBodyBytes?: number; pollMs?: number } = {},
): Promise<TestServer> {
  const home = tempDir('baton-server-home-');
  const service = makeService();
  const server = await startServer(service, {
    host: '127.0.0.1',
    port: 0,
    noAuth: false,
    maxBodyBytes: opts.maxBodyBytes ?? 1024 * 1024,
    home,
    webDir: opts.webDir ?? join(home, 'no-web'),
    pollMs: opts.pollMs ?? 100,
    checkResponses: true,
  });
  return {
    server,
    service,
    home,
    api: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (init.auth !== false) headers.set('authorization', `Bearer ${server.token}`);
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      if (init.cwd) headers.set('x-baton-cwd', init.cwd);
      return fetch(server.url + path, {
        ...init,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
    },
    close: async () => {
      await server.close();
      await service.store.close();
    },
  };
}
