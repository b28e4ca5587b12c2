import type { Page } from 'playwright-core';
import { assertDashboardBuilt, launchChromium } from './browser.js';
import { startServerProcess } from './server.js';

/**
 * Opens a workflow's dashboard page as its user does: `baton serve` started in the worktree on the workspace's Baton
 * home, headless Chromium signed in with the server's token; `look` reads the page, then both are stopped.
 */
export async function onWorkflowPage(
  env: Record<string, string | undefined>,
  repo: string,
  workflowId: string,
  look: (page: Page) => Promise<void>,
): Promise<void> {
  assertDashboardBuilt();
  const server = await startServerProcess(env.BATON_HOME!, { cwd: repo, env: { HOME: env.HOME } });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/#/workflows/${workflowId}`);
    await look(page);
  } finally {
    await browser.close();
    await server.stop();
  }
}
