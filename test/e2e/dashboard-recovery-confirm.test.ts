import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForText } from '../helpers/browser.js';
import { dashboardRig } from '../helpers/dashboard-rig.js';

const wait = { timeout: 20_000 };

/**
 * The recovery page in Chromium against a real `baton serve`: its header says the last known state in words, and a
 * fresh start, which loses every task's progress, is offered in red and done only once confirmed (Cancel changes
 * nothing), as a restore that moves the branch is.
 */
describe('dashboard: the recovery page asks before a fresh start', () => {
  const rig = dashboardRig();
  const { shots, baton } = rig;

  it('says the last known state in words, and resets the tasks only once confirmed', async () => {
    const id = (
      await baton('create', '--title', 'Add login', '--task', 'L1:Write schema', '--task', 'L2:API:L1')
    ).stdout.match(/wf-[0-9a-z]+/)![0];
    await baton('task', 'start', 'L1');
    await baton('task', 'done', 'L1');
    await baton('pause', '--reason', 'end of day');
    const version = (
      (await (await rig.server.api(`/api/workflows/${id}/status`)).json()) as {
        workflow: { version: number };
      }
    ).workflow.version;

    const page = await rig.page(`#/workflows/${id}/recover`);
    await page.getByTestId('recovery').waitFor(wait);
    const header = page.getByTestId('last-known-state');
    await waitForText(
      header,
      `Last known state: no task was in progress; ${version} events recorded, the last at`,
    );
    expect(await header.textContent()).not.toMatch(/task none|event \d/);

    const fresh = page.locator('[data-option="fresh"]');
    const button = fresh.getByRole('button', { name: 'Start fresh' });
    // red, not the blue of the options that keep the work
    expect(await button.getAttribute('class')).toContain('btn-danger-ghost');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Start fresh?' });
    await waitForText(
      dialog.getByTestId('fresh-confirm'),
      'Every task goes back to pending: all task progress is lost',
    );
    await waitForText(dialog, 'L1: done → pending');
    await page.screenshot({ path: join(shots, '40-start-fresh-confirm.png'), fullPage: true });
    // Cancel: nothing changed
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', ...wait });
    const after = (await (await rig.server.api(`/api/workflows/${id}/status`)).json()) as {
      workflow: { status: string; version: number };
      tasks: { id: string; status: string }[];
    };
    expect(after.workflow).toMatchObject({ status: 'paused', version });
    expect(after.tasks.find((t) => t.id === 'L1')?.status).toBe('done');

    // confirmed: the tasks go back to pending, and a new session starts
    await button.click();
    expect(await dialog.getByRole('button', { name: 'Start fresh' }).getAttribute('class')).toContain(
      'btn-danger',
    );
    await dialog.getByRole('button', { name: 'Start fresh' }).click();
    await waitForText(page.locator('.toast-success'), 'Started fresh: session 2 started');
    await page.locator('[data-task="L1"][data-status="pending"]').waitFor(wait);
    await page.close();
  });
});
