import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium } from './browser.js';
import { runCli } from './cli.js';
import { makeRepo, tempDir } from './git-repo.js';
import { startServerProcess, type ServerProcess } from './server.js';

/**
 * A worktree on a Baton home of its own, with `baton serve` started in it and headless Chromium, for the tests of one
 * describe block (call it there: it starts both before them and stops both after). `baton` runs the CLI there and
 * expects it to succeed; `page` opens a route of the dashboard signed in with the server's token.
 */
export function dashboardRig() {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    server = await startServerProcess(home, { cwd: repo });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(it: T | undefined, what: string): T => {
    if (it === undefined)
      throw new Error(`${what} is not started: use the rig inside the tests of its describe block`);
    return it;
  };
  return {
    repo,
    home,
    shots: artifactsDir('dashboard'),
    get server(): ServerProcess {
      return started(server, 'baton serve');
    },
    async baton(...args: string[]) {
      const r = await runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: undefined } });
      expect(r.code, `baton ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    },
    /** The dashboard at `route` (`#/workflows/<id>`), signed in, in a page 1280 by 900. */
    async page(route: string): Promise<Page> {
      const s = started(server, 'baton serve');
      const page = await started(browser, 'Chromium').newPage({ viewport: { width: 1280, height: 900 } });
      await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
      await page.goto(`${s.url}/${route}`);
      return page;
    },
  };
}
