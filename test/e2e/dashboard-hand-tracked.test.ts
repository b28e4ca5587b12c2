import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForText } from '../helpers/browser.js';
import { dashboardRig } from '../helpers/dashboard-rig.js';

/**
 * A workflow tracked by hand (no agent has reported into its session) is said as what is known: its session open
 * with no agent seen and a task in progress, not "running"; the Pause dialog waits for a task in progress, not one
 * "still running". A context reading with no totals yet (what `baton run` records while a task goes on) is not said
 * to be no usage at all next to the gauge that shows it.
 */
describe('dashboard: a hand-tracked workflow said as what is known', () => {
  const rig = dashboardRig();
  const { shots, baton } = rig;

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
    const session = (await (await rig.server.api(`/api/workflows/${id}/session-status`)).json()) as Record<
      string,
      unknown
    >;
    // no agent is said to run it, though its session is open (nothing to resume): the API and the CLI agree
    const handTracked = {
      state: 'open',
      agent_running_note: 'no agent seen (none has reported into this open session; L2 in progress)',
      is_agent_running: false,
      needs_resume: false,
      resume_reason: null,
    };
    expect(session).toMatchObject(handTracked);
    expect(JSON.parse((await baton('session-status', '--json')).stdout)).toMatchObject(handTracked);

    const page = await rig.page(`#/workflows/${id}`);
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
