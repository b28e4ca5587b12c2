import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 20_000 };

/**
 * The session-resumption UI states with a real agent process: `baton run` (another process) runs a command agent
 * that waits for a file; the dashboard shows its executor `ready` (local) while it runs, then `stopped` and the
 * session ended by `task_complete`, live; resumed, nothing runs it until `baton run` again, and the page says so
 * (its head and the session status), following no agent output.
 */
describe('dashboard: the executor of a running agent', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const work = tempDir('baton-agent-');
  const shots = artifactsDir('dashboard');
  let s: ServerProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    s = await startServerProcess(home);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('shows the agent ready while it runs, stopped when its task is done, and what runs it once resumed', async () => {
    const r = await s.api('/api/workflows', {
      method: 'POST',
      json: {
        title: 'Agent at work',
        worktree: repo,
        tasks: [
          { id: 'T1', title: 'one' },
          { id: 'T2', title: 'two', deps: ['T1'] },
        ],
      },
    });
    const id = ((await r.json()) as { id: string }).id;
    const go = join(work, 'go');
    const agent = join(work, 'agent.sh');
    writeFileSync(agent, `#!/bin/sh\nwhile [ ! -f '${go}' ]; do sleep 0.1; done\nexit 0\n`);
    chmodSync(agent, 0o755);

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
    await page.goto(`${s.url}/#/workflows/${id}`);
    await page.locator('[data-live="live"]').waitFor(wait);

    const run = runCli(['run', '--agent', 'command', '--agent-bin', agent, '--max-tasks', '1'], {
      cwd: repo,
      env: { BATON_HOME: home, BATON_URL: undefined },
    });
    try {
      const status = page.getByTestId('session-status');
      await status.locator('[data-executor="ready"]').waitFor(wait);
      expect(await status.textContent()).toContain('Agent ready (local)');
      await page.locator('[data-task="T1"][data-status="in_progress"]').waitFor(wait);
      await waitForText(page.getByTestId('agent-output').locator('.tag-live'), 'following');
      expect(await page.getByTestId('next-step').count()).toBe(0);
      await page.screenshot({ path: join(shots, '12-agent-ready.png'), fullPage: true });
    } finally {
      writeFileSync(go, '');
    }
    expect((await run).code).toBe(0);

    await page.locator(`[data-workflow="${id}"][data-status="paused"]`).waitFor(wait);
    await page.getByTestId('session-status').locator('[data-executor="stopped"]').waitFor(wait);
    await page.locator('[data-session="1"]').getByText('task complete').waitFor(wait);
    // one Resume, at the head of the page: the session's banner points to it rather than offering a second
    await waitForText(
      page.getByTestId('session-resume'),
      'Resume, at the top of the page, starts the next session.',
    );
    expect(await page.getByRole('button', { name: 'Resume session' }).count()).toBe(0);
    await page.screenshot({ path: join(shots, '13-agent-stopped.png'), fullPage: true });

    // Resume: the server starts no agent, so the toast and the session status say what runs it, not that one runs.
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    const next = `baton run -w ${id}`;
    await waitForText(
      page.locator('.toast-success'),
      `Workflow resumed: session 2 started; nothing runs it until \`${next}\``,
    );
    // the command shown as code, not between backticks
    await waitForText(page.getByTestId('agent-running'), `nothing runs it until ${next}`);
    expect(await page.getByTestId('agent-running').locator('code').last().textContent()).toBe(next);
    // ... and so does the head of the page, where a newcomer looks first; no output is said to be followed
    await waitForText(page.getByTestId('next-step'), `Nothing runs this workflow now. To go on: ${next}`);
    // read as one sentence: its words, command and reason one item of the banner's row, not columns side by side
    const code = page.getByTestId('next-step').locator('code').first();
    const [line, words] = await Promise.all([
      code.evaluate((el) => el.getBoundingClientRect().top),
      page.getByTestId('next-step').evaluate((el) => el.getBoundingClientRect().top),
    ]);
    expect(line - words).toBeLessThan(20);
    expect(await page.getByTestId('agent-output').locator('.tag-live').count()).toBe(0);
  });
});
