import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 20_000 };

/**
 * The dashboard outlives its server: while `baton serve` is down the CLI goes on writing; when a server is back on
 * the same address, the dashboard reconnects with `since=<last position>`, replays what it missed and shows it,
 * with no reload.
 */
describe('dashboard: reconnects and replays what it missed', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const shots = artifactsDir('dashboard');
  const baton = (...args: string[]) =>
    runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: undefined } });
  let servers: ServerProcess[] = [];
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    servers.push(await startServerProcess(home));
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];
  });

  it('shows the CLI changes made while the server was down once it is back', async () => {
    const first = servers[0]!;
    const r = await first.api('/api/workflows', {
      method: 'POST',
      json: {
        title: 'Survive a restart',
        worktree: repo,
        tasks: [
          { id: 'T1', title: 'one' },
          { id: 'T2', title: 'two', deps: ['T1'] },
        ],
      },
    });
    const id = ((await r.json()) as { id: string }).id;
    expect((await baton('task', 'start', 'T1')).code).toBe(0);

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The token the dashboard keeps in localStorage (key `baton.token`), set before its script runs.
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(first.token)})`);
    await page.goto(`${first.url}/#/workflows/${id}`);
    await page.locator('[data-task="T1"][data-status="in_progress"]').waitFor(wait);
    await page.locator('[data-live="live"]').waitFor(wait);
    await page.evaluate(() => ((globalThis as unknown as { batonNoReload: boolean }).batonNoReload = true));

    await first.stop();
    await page.locator('[data-live="offline"]').waitFor(wait);
    expect((await baton('task', 'done', 'T1')).code).toBe(0);
    expect((await baton('task', 'start', 'T2')).code).toBe(0);
    await page.screenshot({ path: join(shots, '10-server-down.png'), fullPage: true });

    const port = new URL(first.url).port;
    servers.push(await startServerProcess(home, { args: ['--port', port] }));
    await page.locator('[data-live="live"]').waitFor(wait);
    await page.locator('[data-task="T1"][data-status="done"]').waitFor(wait);
    await page.locator('[data-task="T2"][data-status="in_progress"]').waitFor(wait);
    // The events themselves were replayed (not only the views refetched): the feed lists them.
    const feed = page.getByTestId('activity');
    await feed.locator('[data-type="task.completed"]').waitFor(wait);
    await feed.locator('[data-type="task.started"]').first().waitFor(wait);
    expect(
      await page.evaluate(() => (globalThis as unknown as { batonNoReload?: boolean }).batonNoReload),
    ).toBe(true);
    await page.screenshot({ path: join(shots, '11-reconnected.png'), fullPage: true });
  });
});
