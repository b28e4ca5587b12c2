import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium } from '../helpers/browser.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 20_000 };

/**
 * The dashboard outlives its server and the server's log is replaced (a rebuild into a new store): the dashboard
 * reconnects with `since=<its last position>`, which is beyond the new log's end. The server says so
 * (`subscription.reset`), the dashboard takes the new end as its position and refetches, and the events of the new
 * log reach it live; without the reset it would drop them all as already seen.
 */
describe('dashboard: a log that was replaced behind its back', () => {
  const repo = makeRepo();
  const shots = artifactsDir('dashboard');
  const servers: ServerProcess[] = [];
  let browser: Browser;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
  });

  const create = async (s: ServerProcess, title: string) => {
    const r = await s.api('/api/workflows', {
      method: 'POST',
      json: {
        title,
        worktree: repo,
        tasks: [
          { id: 'T1', title: 'one' },
          { id: 'T2', title: 'two' },
        ],
      },
    });
    const id = ((await r.json()) as { id: string }).id;
    for (const step of ['tasks/T1/start', 'tasks/T1/done', 'tasks/T2/start'])
      expect(
        (await s.api(`/api/workflows/${id}/${step}`, { method: 'POST', json: { note: null } })).status,
      ).toBe(200);
    return id;
  };

  it('takes the reset, refetches, and shows the new log’s events live', async () => {
    const homeA = tempDir('baton-home-');
    const first = await startServerProcess(homeA);
    servers.push(first);
    for (const title of ['Old one', 'Old two', 'Old three']) await create(first, title);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(first.token)})`);
    await page.goto(`${first.url}/#/`);
    await page.locator('[data-live="live"]').waitFor(wait);
    await page.getByTestId('workflow-list').getByText('Old three').waitFor(wait);
    await page.evaluate(() => ((globalThis as unknown as { batonNoReload: boolean }).batonNoReload = true));

    await first.stop();
    await page.locator('[data-live="offline"]').waitFor(wait);
    // A new, empty store on the same address (the dashboard keeps its token: the same token file).
    const homeB = tempDir('baton-home-');
    copyFileSync(join(homeA, 'token'), join(homeB, 'token'));
    const second = await startServerProcess(homeB, { args: ['--port', new URL(first.url).port] });
    servers.push(second);
    await page.locator('[data-live="live"]').waitFor(wait);
    await page.getByText('No workflows').waitFor(wait);

    await create(second, 'After the rebuild');
    await page.getByTestId('workflow-list').getByText('After the rebuild').waitFor(wait);
    expect(await page.getByTestId('workflow-list').getByText('Old three').count()).toBe(0);
    expect(
      await page.evaluate(() => (globalThis as unknown as { batonNoReload?: boolean }).batonNoReload),
    ).toBe(true);
    await page.screenshot({ path: join(shots, '12-log-reset.png'), fullPage: true });
  });
});
