import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { assertDashboardBuilt, launchChromium } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';

/** Opens a WebSocket to `/ws` with a token; `closed` settles with the close code and reason. */
async function liveSocket(url: string, token: string) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?token=${token}`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  return { ws, closed };
}

const rotate = (home: string) => runCli(['token', '--rotate'], { cwd: home, env: { BATON_HOME: home } });

// A token that leaked is replaced where the server runs: `baton token --rotate` writes a new one, and the running
// server takes it at its next request and refuses the old one, without a restart.

describe('baton token --rotate', () => {
  it('replaces the token a running server accepts, and the old one is refused from then on', async () => {
    const home = tempDir('baton-server-');
    const s = await startServerProcess(home);
    try {
      const status = (token: string) =>
        fetch(`${s.url}/api/workflows`, { headers: { authorization: `Bearer ${token}` } }).then(
          (r) => r.status,
        );
      expect(await status(s.token)).toBe(200);
      const rotated = await rotate(home);
      expect(rotated.code, rotated.stderr).toBe(0);
      const fresh = rotated.stdout.trim();
      expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fresh).not.toBe(s.token);
      expect(rotated.stderr).toContain('takes it at its next request and refuses the old one');
      expect(statSync(join(home, 'token')).mode & 0o777).toBe(0o600);
      expect(await status(s.token)).toBe(401);
      expect(await status(fresh)).toBe(200);
      // `baton token` prints the new one; the server never restarted
      expect((await runCli(['token'], { cwd: home, env: { BATON_HOME: home } })).stdout.trim()).toBe(fresh);
      expect(s.ended()).toBeNull();
      // through a server, it is refused: a token is rotated where its server runs
      const remote = await runCli(['token', '--rotate'], {
        cwd: home,
        env: { BATON_HOME: tempDir('baton-client-'), BATON_URL: s.url, BATON_TOKEN: fresh },
      });
      expect(remote.code).toBe(2);
      expect(remote.stderr).toContain('a token is rotated where its server runs');
      expect(await status(fresh)).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('closes the WebSockets opened with the old token (1008), and the dashboard asks for the new one', async () => {
    const home = tempDir('baton-server-');
    const s = await startServerProcess(home);
    assertDashboardBuilt();
    const browser = await launchChromium();
    try {
      const old = await liveSocket(s.url, s.token);
      const page = await browser.newPage();
      await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
      await page.goto(`${s.url}/`);
      await page.locator('[data-live="live"]').waitFor({ timeout: 20_000 });

      const rotated = await rotate(home);
      expect(rotated.code, rotated.stderr).toBe(0);
      const fresh = rotated.stdout.trim();
      const ended = await old.closed;
      expect(ended.code).toBe(1008);
      expect(ended.reason).toContain('token was rotated');
      // a socket opened with the new token is left open
      const renewed = await liveSocket(s.url, fresh);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(renewed.ws.readyState).toBe(WebSocket.OPEN);
      renewed.ws.close();
      // the dashboard shows its token form, saying the old token was refused
      await page
        .getByRole('alert')
        .filter({ hasText: 'The server refused that token' })
        .waitFor({ timeout: 20_000 });
      await page.locator('#token').fill(fresh);
      await page.getByRole('button', { name: 'Open the dashboard' }).click();
      await page.locator('[data-live="live"]').waitFor({ timeout: 20_000 });
    } finally {
      await browser.close();
      await s.stop();
    }
  });
});
