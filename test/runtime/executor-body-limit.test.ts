import { describe, expect, it } from 'vitest';
import { startExecutorDaemon } from '../../src/executors/remote/executor-daemon.js';
import { rawRequest, streamRequest } from '../helpers/raw-http.js';

const token = 'test-executor-token-0123456789';
const auth = { authorization: `Bearer ${token}` };
const refusal = { error: "request body over the executor daemon's limit of 4194304 bytes (4 MiB)" };

/**
 * `baton executor serve`: a body over its 4 MiB limit is answered 413 without being read to its end (as `baton
 * serve` answers one over `--max-body`), the connection closed so that nothing more of it is read.
 */
describe('the executor daemon: a body over its limit', () => {
  it('is refused by its Content-Length before any of it is read, or once past the limit, and the client reads the 413', async () => {
    const daemon = await startExecutorDaemon({ host: '127.0.0.1', port: 0, token });
    try {
      for (const chunked of [false, true]) {
        // 256 MiB: refused without being read to its end, the connection closed by the daemon
        const r = await streamRequest(daemon.url, {
          path: '/launch',
          headers: auth,
          bodyBytes: 256 * 1024 * 1024,
          chunked,
        });
        const what = `${chunked ? 'chunked' : 'Content-Length'}: ${JSON.stringify({ ...r, body: r.body.slice(0, 200) })}`;
        expect(r.status, what).toBe(413);
        expect(r.headers.connection, what).toBe('close');
        expect(r.error, what).toBeNull();
        expect(r.closedByServer, what).toBe(true);
        expect(JSON.parse(r.body), what).toEqual(refusal);
      }
      // a client that never stops sending is answered all the same, and cut off after the linger time
      const endless = await streamRequest(daemon.url, {
        path: '/launch',
        headers: auth,
        bodyBytes: 0,
        chunked: true,
        ignoreClose: true,
      });
      expect(endless.status).toBe(413);
      expect(endless.closedByServer).toBe(true);
      // a refusal before the body is read (no token, a wrong one) does not read it either: the connection closes
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }] as Record<
        string,
        string
      >[]) {
        const refused = await streamRequest(daemon.url, {
          path: '/launch',
          headers,
          bodyBytes: 64 * 1024 * 1024,
          chunked: true,
        });
        expect(refused.status).toBe(401);
        expect(refused.headers.connection).toBe('close');
        expect(refused.closedByServer).toBe(true);
      }
      // a poll without a body keeps its connection
      const health = await rawRequest(daemon.url, { method: 'GET', path: '/health', headers: auth });
      expect(health.status).toBe(200);
      expect(health.headers.connection).not.toBe('close');
      // a body within the limit is read as before
      const fine = await rawRequest(daemon.url, {
        method: 'POST',
        path: '/launch',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ nothing: 'x'.repeat(1024 * 1024) }),
      });
      expect(fine.status).toBe(400);
      expect(fine.json()).toEqual({ error: 'expected {bin, args[], cwd, env?, stdin?}' });
    } finally {
      await daemon.close();
    }
  }, 30_000);
});
