import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

/**
 * A workflow tracked by hand (no agent has reported into its session) is said as what is known: its session open
 * with no agent seen and a task in progress, not "running"; the Pause dialog waits for a task in progress, not one
 * "still running". A context reading with no totals yet (what `baton run` records while a task goes on) is not said
 * to be no usage at all next to the gauge that shows it.
 */
describe('dashboard: a hand-tracked workflow said as what is known', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const shots = artifactsDir('dashboard');
  let server: ServerProcess;
  let browser: Browser;
  const baton = async (...args: string[]) => {
    const r = await runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: undefined } });
    expect(r.code, `baton ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    server = await startServerProcess(home, { cwd: repo });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says the session open with no agent seen, the pause waiting for a task in progress', async () => {
    const id = (
      await baton('create', '--title', 'Add login', '--task', 'L1:Write schema', '--task', 'L2:API:L1')
    ).stdout.match(/wf-[0-9a-z]+/)![0];
    for (const step of [
      ['start', 'L1'],
      ['done', 'L1'],
      ['start', 'L2'],
    ])
      await baton('task', ...step);
    const session = (await (await server.api(`/api/workflows/${id}/session-status`)).json()) as Record<
      string,
      unknown
    >;
    expect(session).toMatchObject({
      state: 'open',
      agent_running_note: 'no agent seen (none has reported into this open session; L2 in progress)',
    });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/#/workflows/${id}`);
    const panel = page.getByTestId('session-status');
    await waitForText(
      panel.getByTestId('agent-running'),
      'no agent seen (none has reported into this open session; L2 in progress)',
    );
    expect(await panel.locator('.card-head [data-status]').getAttribute('data-status')).toBe('open');
    // nothing says it runs (the "Agent running" label asks; its answer says what is known)
    expect((await panel.textContent())!.replace('Agent running', '')).not.toMatch(/running|assumed/);

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause workflow' });
    await waitForText(
      dialog,
      'The pause waits for the task boundary: it takes effect once L2 (in progress) is done.',
    );
    expect(await dialog.textContent()).not.toContain('running');
    await page.screenshot({ path: join(shots, '43-hand-tracked-pause.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // the context read while the task goes on, no totals yet (as `baton run` records it mid-task)
    await baton('record', 'usage', '--tokens', '0', '--context-tokens', '4200', '--context-window', '200000');
    const usage = page.getByTestId('usage');
    await waitForText(usage.getByTestId('capacity-gauge'), '(4,200 of 200,000 tokens)');
    await waitForText(
      usage.getByTestId('usage-none'),
      'No token totals yet: so far only the context its agent fills',
    );
    expect(await usage.textContent()).not.toContain('No usage reported');
    await usage.screenshot({ path: join(shots, '44-usage-context-only.png') });
    await page.close();
  });
});
