import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

// What a person who just started `baton serve` meets: an empty store, and an address of a workflow that is not there.

const wait = { timeout: 20_000 };

describe('dashboard: an empty store and a missing workflow', () => {
  let browser: Browser;
  let server: ServerProcess;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    server = await startServerProcess(tempDir('baton-home-'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (hash: string) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/${hash}`);
    return page;
  };

  it('the empty list tells agent users to run baton init and work, before baton create', async () => {
    const page = await open('#/');
    const empty = page.getByTestId('no-workflows');
    await waitForText(empty, 'With Claude Code or Codex, run baton init in the git repository you work in');
    const text = (await empty.textContent()) ?? '';
    expect(text).toContain("each conversation's workflow appears here by itself");
    expect(text.indexOf('baton init')).toBeLessThan(text.indexOf('baton create'));
    // a status filter with nothing in it says only that
    await page.getByRole('button', { name: 'Paused', exact: true }).click();
    await page.getByText('No workflows with this status.').waitFor(wait);
    expect(await page.getByTestId('no-workflows').count()).toBe(0);
    await page.close();
  });

  it('the recovery page of a workflow that is not there links back to the workflows', async () => {
    const page = await open('#/workflows/wf-x/recover');
    await waitForText(page.locator('.error-note'), 'no workflow wf-x');
    await page.getByRole('link', { name: 'Back to the workflows' }).click();
    await page.getByTestId('no-workflows').waitFor(wait);
    expect(new URL(page.url()).hash).toBe('#/');
    await page.close();
  });
});
