import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BLOCK_BEGIN, BLOCK_END } from '../../src/core/baton-block.js';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 15_000 };

/**
 * The dashboard in real Chromium against a real `baton serve` child process, with CLI commands from another
 * process: token form, list, pause with a reason from the dialog, live updates, resume, snapshot, failure toast.
 */
describe('dashboard in Chromium', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const shots = artifactsDir('dashboard');
  let s: ServerProcess;
  let browser: Browser;
  let page: Page;
  let id = '';
  const pageErrors: string[] = [];
  const baton = (...args: string[]) =>
    runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: undefined } });
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const workflowRoot = () => page.locator(`[data-workflow="${id}"]`);
  const toast = async (kind: 'success' | 'error', text: string) => {
    try {
      await waitForText(page.locator(`.toast-${kind}`).filter({ hasText: text }), text);
    } catch (e) {
      const all = await page.locator('.toast').allTextContents();
      throw new Error(`no ${kind} toast "${text}"; toasts: ${JSON.stringify(all)}`, { cause: e });
    }
  };

  // a failure says how the server fared: once, all nine failed with "Failed to fetch" a few seconds in
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(s?.report())));

  beforeAll(async () => {
    assertDashboardBuilt();
    // `baton init`'s block in an untracked CLAUDE.md: not the work in progress, named apart in the git panel
    writeFileSync(join(repo, 'CLAUDE.md'), `${BLOCK_BEGIN}\nUse baton.\n${BLOCK_END}\n`);
    browser = await launchChromium();
    s = await startServerProcess(home);
    const created = await s.api('/api/workflows', {
      method: 'POST',
      json: {
        title: 'Add login',
        worktree: repo,
        tasks: [
          { id: 'T1', title: 'Write schema' },
          { id: 'T2', title: 'Implement API', deps: ['T1'] },
          { id: 'T3', title: 'Write docs', deps: ['T1'] },
          { id: 'T4', title: 'Write the changelog', deps: ['T1'] },
        ],
      },
    });
    expect(created.status).toBe(201);
    id = ((await created.json()) as { id: string }).id;
    expect((await s.api(`/api/workflows/${id}/tasks/T1/start`, { method: 'POST', json: {} })).status).toBe(
      200,
    );
    const records = [
      [
        'decisions',
        { decision_type: 'library', description: 'Use argon2', rationale: 'memory-hard', task_id: 'T1' },
      ],
      ['errors', { error_type: 'TypeError', error_message: 'x is undefined', resolution: 'unresolved' }],
      // the API failing under the agent: its record unresolved, shown as an API failure, no open error of the work
      [
        'errors',
        {
          error_type: 'agent_error',
          error_message:
            'agent: API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        },
      ],
      // a long run whose output, cut in the middle, named one of its two failures
      [
        'test-runs',
        {
          phase: 'red',
          failing_tests: ['auth.spec.ts > rejects a bad token'],
          last_test_command: 'npx vitest run',
          last_test_output_summary: '8 passed, 2 failed',
          passed: 8,
          failed: 2,
        },
      ],
      [
        'usage',
        {
          tokens_used: 150_000,
          context_tokens: 150_000,
          context_window: 200_000,
          llm_calls: 12,
          tool_calls: 40,
        },
      ],
    ] as const;
    for (const [path, json] of records) {
      const r = await s.api(`/api/workflows/${id}/${path}`, { method: 'POST', json });
      expect(r.status, `${path}: ${await r.clone().text()}`).toBe(201);
    }
    // a conversation opened and left: a workflow that held nothing, cancelled; the list leaves it out, and says so
    const left = await s.api('/api/workflows', {
      method: 'POST',
      json: { title: 'Opened and left', worktree: makeRepo(), tasks: [] },
    });
    const leftId = ((await left.json()) as { id: string }).id;
    expect((await s.api(`/api/workflows/${leftId}/abandon`, { method: 'POST', json: {} })).status).toBe(200);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('asks for the token, refuses a wrong one, and lists the workflow', async () => {
    await page.goto(s.url);
    await page.getByLabel('Token').fill('not-the-token');
    await page.getByRole('button', { name: 'Open the dashboard' }).click();
    await waitForText(page.getByRole('alert'), 'refused that token');
    await shot('01-token-refused');

    await page.getByLabel('Token').fill(s.token);
    await page.getByRole('button', { name: 'Open the dashboard' }).click();
    await waitForText(page.getByTestId('workflow-list'), 'Add login');
    await waitForText(
      page.getByTestId('hidden-empty'),
      '1 cancelled workflow that held nothing is not shown',
    );
    expect(await page.getByTestId('workflow-list').textContent()).not.toContain('Opened and left');
    await page.locator('[data-live="live"]').waitFor(wait);
    await shot('02-workflow-list');
  });

  it('opens the workflow and pauses it with a reason from the dialog', async () => {
    await page.getByRole('link', { name: 'Add login' }).click();
    await workflowRoot().waitFor(wait);
    // A marker that a reload would wipe: every later change must arrive without one.
    await page.evaluate(() => ((globalThis as unknown as { batonNoReload: boolean }).batonNoReload = true));
    await page.locator('[data-task="T1"][data-status="in_progress"]').waitFor(wait);
    await waitForText(page.getByTestId('capacity-gauge'), '75%');

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause workflow' });
    await dialog.waitFor(wait);
    await waitForText(dialog, 'once T1 (in progress) is done');
    await dialog.getByLabel('Reason (optional)').fill('end of day');
    await shot('03-pause-dialog');
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await toast('success', 'Pause requested: waiting for the task boundary (T1)');
    await waitForText(page.getByTestId('pause-requested'), 'end of day');
    await shot('04-pause-requested');
    // withdrawn while it waits (the resume route): the workflow goes on; then asked again
    await page.getByRole('button', { name: 'Withdraw pause' }).click();
    await toast('success', 'Pause request withdrawn ("end of day"): the workflow goes on');
    await page.getByTestId('pause-requested').waitFor({ ...wait, state: 'detached' });
    await waitForText(page.getByTestId('activity'), 'workflow.pause_withdrawn');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await dialog.getByLabel('Reason (optional)').fill('end of day');
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await waitForText(page.getByTestId('pause-requested'), 'end of day');
  });

  it('shows CLI changes live: the task boundary makes the pause take effect', async () => {
    expect((await baton('task', 'done', 'T1')).code).toBe(0);
    await page.locator(`[data-workflow="${id}"][data-status="paused"]`).waitFor(wait);
    await page.locator('[data-task="T1"][data-status="done"]').waitFor(wait);
    await waitForText(page.getByTestId('paused-banner'), 'end of day');
    await waitForText(page.getByTestId('activity'), 'workflow.paused');
    await shot('05-paused-live');
  });

  it('resumes from the dashboard, then shows a task started from the CLI live', async () => {
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await toast('success', 'Workflow resumed: session 2 started');
    await page.locator(`[data-workflow="${id}"][data-status="in_progress"]`).waitFor(wait);
    await page.locator('[data-session="2"]').waitFor(wait);
    // no agent reported into it (no hooks, no baton run): said as what is known, in the CLI's words
    await waitForText(
      page.getByTestId('agent-running'),
      'no agent seen (none has reported into this open session',
    );

    expect((await baton('task', 'start', 'T2')).code).toBe(0);
    await page.locator('[data-task="T2"][data-status="in_progress"]').waitFor(wait);
    await waitForText(page.getByTestId('activity'), 'task.started · T2');
    // a skipped task is finished, and said skipped, as the CLI says it
    expect((await baton('task', 'skip', 'T4', '--reason', 'no release yet')).code).toBe(0);
    await page.locator('[data-task="T4"][data-status="skipped"]').waitFor(wait);
    await waitForText(page.locator('.card-head', { hasText: 'Tasks' }), '1/4 done, 1 skipped');
    await waitForText(page.getByTestId('resume-context'), 'T2');
    expect(
      await page.evaluate(() => (globalThis as unknown as { batonNoReload?: boolean }).batonNoReload),
    ).toBe(true);
    await shot('06-resumed-task-started-live');
  });

  it('opens the pause snapshot: reason, decisions with rationale, unresolved errors, failing tests, git, usage', async () => {
    await page.getByTestId('snapshot-list').locator('a', { hasText: 'pause' }).first().click();
    const detail = page.getByTestId('snapshot-detail');
    await waitForText(detail.getByTestId('snapshot-pause-reason'), 'end of day');
    await waitForText(detail.getByTestId('decisions'), 'Why: memory-hard');
    await waitForText(detail.locator('[data-resolution="unresolved"]'), 'x is undefined');
    // an API failure: its item says what its badge says, not its record's "unresolved"
    const failure = detail.getByTestId('errors').locator('li', { hasText: 'overloaded_error' });
    await waitForText(failure, 'API failure:');
    expect(await failure.getAttribute('data-resolution')).toBe('api_failure');
    expect(await failure.locator('[data-status="api_failure"]').count()).toBe(1);
    expect(await detail.locator('[data-resolution="unresolved"]').count()).toBe(1);
    await waitForText(detail.getByTestId('tdd-state'), 'auth.spec.ts > rejects a bad token and 1 not named');
    await waitForText(detail.getByTestId('git-state'), 'main');
    await waitForText(detail.getByTestId('git-baton-block'), "Baton's instructions block in CLAUDE.md");
    expect(await detail.getByTestId('git-state').textContent()).toContain('clean');
    await waitForText(detail.getByTestId('capacity-gauge'), '75%');
    expect(page.url()).toMatch(new RegExp(`#/workflows/${id}/snapshots/snap-`));
    await shot('07-snapshot');
  });

  it('lists a paused workflow under resumable sessions and resumes it from there', async () => {
    expect((await baton('task', 'done', 'T2')).code).toBe(0);
    expect((await baton('pause', '--reason', 'lunch')).code).toBe(0);
    await page.getByRole('link', { name: 'Workflows' }).first().click();
    const panel = page.getByTestId('resumable-sessions');
    await waitForText(panel, 'Add login');
    // its step as the CLI says it: the skipped task is not counted done
    await waitForText(panel, '2/4, 1 skipped');
    await waitForText(page.getByTestId('workflow-list'), '2/4, 1 skipped');
    await shot('08-resumable-sessions');
    await panel.getByRole('button', { name: 'Resume' }).click();
    await toast('success', 'Resumed: session 3 started');
    await page.locator(`[data-workflow="${id}"][data-status="in_progress"]`).waitFor(wait);
  });

  it('shows a failure toast when the workflow changed under the dialog', async () => {
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause workflow' });
    await dialog.waitFor(wait);
    expect((await baton('abandon', id)).code).toBe(0);
    await page.locator(`[data-workflow="${id}"][data-status="cancelled"]`).waitFor(wait);
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await toast('error', 'Failed to pause workflow');
    await waitForText(page.locator('.toast-error'), 'cancelled');
    await shot('09-failure-toast');
  });

  it('lists a workflow whose Codex was quit mid-plan as going on in its next Codex session, with no Resume', async () => {
    // Codex's hooks follow a conversation in another repository: a plan with a step in progress, then its turn ended
    const other = makeRepo();
    const session = '019e1625-789d-76c0-80ab-3724b5ddb799';
    const rollout = join(tempDir('baton-tr-'), `rollout-2026-05-11T11-26-55-${session}.jsonl`);
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: new Date().toISOString(), type, payload });
    const plan = [{ step: 'Add the retry', status: 'in_progress' }];
    writeFileSync(
      rollout,
      `${[
        line('session_meta', { id: session, cwd: other, cli_version: '0.130.0' }),
        line('event_msg', { type: 'user_message', message: 'Add a retry to the uploader' }),
        line('response_item', {
          type: 'function_call',
          name: 'update_plan',
          arguments: JSON.stringify({ plan }),
          call_id: 'call_1',
        }),
        line('response_item', { type: 'function_call_output', call_id: 'call_1', output: 'Plan updated' }),
      ].join('\n')}\n`,
    );
    for (const [event, extra] of [
      ['SessionStart', { source: 'startup' }],
      ['UserPromptSubmit', { prompt: 'Add a retry to the uploader' }],
      ['Stop', { stop_hook_active: false }],
    ] as const) {
      const r = await runCli(['hook', event, '--agent', 'codex'], {
        cwd: other,
        env: { BATON_HOME: home, BATON_URL: undefined },
        input: JSON.stringify({
          session_id: session,
          cwd: other,
          hook_event_name: event,
          transcript_path: rollout,
          ...extra,
        }),
      });
      expect(r.code, r.stderr).toBe(0);
    }
    await page.goto(`${s.url}/#/`);
    const row = page.getByTestId('resumable-sessions').getByRole('row').filter({ hasText: 'Add a retry' });
    await waitForText(row, 'the next Codex session in its worktree goes on with it');
    expect(await row.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await shot('10-resumable-next-session');
  });

  it('says so for an unknown workflow or page, and had no script errors', async () => {
    await page.goto(`${s.url}/#/workflows/wf-doesnotexist`);
    await waitForText(page.getByRole('alert'), 'no workflow wf-doesnotexist');
    await page.goto(`${s.url}/#/nowhere`);
    await waitForText(page.locator('main'), 'Nothing here');
    expect(pageErrors).toEqual([]);
  });
});
