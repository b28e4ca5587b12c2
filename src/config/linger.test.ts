import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { streamRequest } from '../../test/helpers/raw-http.js';
import { lingerOnUnreadBodies } from './linger.js';

/** A server that answers every request at once, its body unread, closing the connection (as a 413 does). */
async function refusing(lingerMs: number): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    res.end('{"error":{"code":"payload_too_large","message":"too big"}}');
  });
  lingerOnUnreadBodies(server, lingerMs);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('lingerOnUnreadBodies', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  });

  it('a client still sending its body reads the answer, and the connection closes cleanly', async () => {
    const s = await refusing(5_000);
    server = s.server;
    for (let i = 0; i < 8; i++) {
      const t0 = Date.now();
      const r = await streamRequest(s.url, { path: '/', bodyBytes: 4 * 1024 * 1024 });
      expect(r, `try ${i}`).toMatchObject({ status: 413, error: null, closedByServer: true });
      expect(r.body).toContain('payload_too_large');
      // closed as soon as the client closed its side, not after the linger time
      expect(Date.now() - t0).toBeLessThan(4_000);
    }
  });

  it('a client that never stops sending is cut off after the linger time, once answered', async () => {
    const s = await refusing(300);
    server = s.server;
    const t0 = Date.now();
    const r = await streamRequest(s.url, { path: '/', bodyBytes: 0, chunked: true, ignoreClose: true });
    expect(r.status).toBe(413);
    expect(r.closedByServer).toBe(true);
    expect(r.error).toMatch(/ECONNRESET|EPIPE/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('a keep-alive connection whose body was read closes as usual afterwards', async () => {
    const server2 = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server = server2;
    lingerOnUnreadBodies(server2, 5_000);
    await new Promise<void>((done) => server2.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server2.address() as AddressInfo).port}/`;
    const res = await fetch(url, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(await res.text()).toBe('ok');
  });
});
