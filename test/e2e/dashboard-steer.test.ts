import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClaude } from '../helpers/agent-workspace.js';
import {
  artifactsDir,
  assertDashboardBuilt,
  launchChromium,
  waitForText as waitText,
} from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 20_000 };
const waitForText = (l: Locator, text: string | RegExp) => waitText(l, text, wait.timeout);

/** Nothing on the page is wider than the screen: no horizontal scrolling at a phone's 390 px. */
async function fitsWidth(page: Page, width: number) {
  const overflow = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
        .documentElement.scrollWidth,
  );
  expect(overflow).toBeLessThanOrEqual(width);
}

/**
 * The dashboard as a place to steer, in real Chromium against a real `baton serve`, with `baton run` driving a fake
 * Claude Code from another process: the plan and decisions, the agent's output (live) and each task's log, the
 * event history, the summed usage, and the recovery screen that restores a checkpoint over a newer commit, keeping
 * that commit on a backup ref; every page at 390 px wide.
 */
describe('dashboard: steering a workflow', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const shots = artifactsDir('dashboard');
  let s: ServerProcess;
  let browser: Browser;
  let page: Page;
  let id = '';
  let checkpointCommit = '';
  let newer = '';
  const pageErrors: string[] = [];
  const env = { BATON_HOME: home, BATON_URL: undefined, BATON_AGENT_BIN: fakeClaude };
  const baton = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { cwd: repo, env: { ...env, ...extra } });
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    s = await startServerProcess(home, { cwd: repo });
    const plan = join(tempDir('baton-plan-'), 'plan.md');
    writeFileSync(plan, '1. Schema first\n2. Then the API\n3. Then the docs\n');
    const created = await baton([
      'create',
      '--title',
      'Steer me',
      '--plan',
      plan,
      '--task',
      'T1:Schema',
      '--task',
      'T2:API:T1',
      '--task',
      'T3:Docs:T2',
      '--json',
    ]);
    id = created.json<{ id: string }>().id;
    await baton([
      'record',
      'decision',
      '--type',
      'library',
      '--description',
      'Use argon2',
      '--rationale',
      'memory-hard',
    ]);
    const first = await baton(['run', '--agent', 'claude-code', '--max-tasks', '1']);
    expect(first.code, first.stderr).toBe(0);
    checkpointCommit = gitIn(repo, 'rev-parse', 'HEAD').trim();
    // A commit made after the checkpoint: a restore must not lose it.
    writeFileSync(join(repo, 'api.ts'), 'export const api = 1;\n');
    gitIn(repo, 'add', 'api.ts');
    gitIn(repo, 'commit', '-qm', 'api after the checkpoint');
    newer = gitIn(repo, 'rev-parse', 'HEAD').trim();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
  });

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('shows the plan, the decisions, the usage, the task log and the event history', async () => {
    await page.goto(`${s.url}/#/workflows/${id}`);
    await page.locator(`[data-workflow="${id}"][data-status="paused"]`).waitFor(wait);
    await waitForText(page.getByTestId('plan'), '2. Then the API');
    await waitForText(page.getByTestId('decisions'), 'Use argon2');
    await waitForText(page.getByTestId('decisions'), 'Why: memory-hard');
    await waitForText(page.getByTestId('usage-cost'), '$0.14');
    await waitForText(page.getByTestId('agent-output'), 'T1 · s1');
    await waitForText(page.getByTestId('agent-log').locator('[data-kind="result"]'), 'Result (success');
    await waitForText(page.getByTestId('event-history'), 'task.completed');
    await waitForText(page.getByTestId('event-history'), 'Use argon2');
    await shot('20-workflow-steer');
  });

  it('works at 390 px wide: the resumable list, the workflow and the recovery screen fit the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.url}/#/`);
    await waitForText(page.getByTestId('resumable-sessions'), 'Steer me');
    await fitsWidth(page, 390);
    await shot('21-resumable-390');
    await page.goto(`${s.url}/#/workflows/${id}`);
    await page.locator(`[data-workflow="${id}"]`).waitFor(wait);
    await waitForText(page.getByTestId('agent-log').locator('[data-kind="result"]'), 'Result (success');
    await fitsWidth(page, 390);
    await shot('22-workflow-390');
    await page.goto(`${s.url}/#/workflows/${id}/recover`);
    await waitForText(page.getByTestId('commits-leaving'), 'api after the checkpoint');
    await fitsWidth(page, 390);
    await shot('23-recovery-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the recovery screen says what each option changes, and a restore keeps the newer commit on a backup ref', async () => {
    await page.goto(`${s.url}/#/workflows/${id}`);
    await page.getByTestId('recovery-link').click();
    const cp = page.locator('[data-option="checkpoint"]');
    await waitForText(cp.getByTestId('commits-leaving'), `${newer.slice(0, 7)} api after the checkpoint`);
    await waitForText(cp.getByTestId('commits-leaving'), 'refs/baton/backup/');
    await waitForText(
      cp.getByTestId('git-changes'),
      `moves from ${newer.slice(0, 7)} to ${checkpointCommit.slice(0, 7)}`,
    );
    await waitForText(cp.getByTestId('files-changing'), '1 file would change');
    await waitForText(page.locator('[data-option="live_state"]').getByTestId('data-loss'), '0 actions');
    await waitForText(
      page.locator('[data-option="fresh"]').getByTestId('task-changes'),
      'T1: done → pending',
    );
    await shot('24-recovery-options');
    await cp.getByRole('button', { name: 'Restore this checkpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move the branch?' });
    await dialog.waitFor(wait);
    await waitForText(dialog, 'api after the checkpoint');
    // the ref is named for the time of the restore, which plans again when confirmed
    await waitForText(dialog, `refs/baton/backup/${id}/<time of the restore>`);
    // Nothing happened yet: the plan was asked for, not carried out.
    expect(gitIn(repo, 'rev-parse', 'HEAD').trim()).toBe(newer);
    await shot('25-restore-confirm');
    await dialog.getByRole('button', { name: 'Restore and keep the backup' }).click();
    await waitForText(page.locator('.toast-success'), 'Restored cp-01-schema');
    await page.locator(`[data-workflow="${id}"][data-status="in_progress"]`).waitFor(wait);
    expect(gitIn(repo, 'rev-parse', 'HEAD').trim()).toBe(checkpointCommit);
    const refs = gitIn(repo, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/baton/backup').trim();
    expect(refs).toMatch(new RegExp(`^${newer} refs/baton/backup/${id}/\\d{8}T\\d{6}Z$`));
    // in progress again, and nothing runs it until `baton run`: the screen says so first, with the pause that makes
    // an option choosable
    await page.goto(`${s.url}/#/workflows/${id}/recover`);
    await waitForText(
      page.getByTestId('recovery-refusal'),
      new RegExp(`nothing runs it .*baton run -w ${id} goes on from where it is`),
    );
    await waitForText(page.getByTestId('recovery-refusal'), new RegExp(`baton pause( --force)? -w ${id}`));
    expect(await page.locator('[data-option="fresh"]').getByRole('button').first().isDisabled()).toBe(true);
    await page.goto(`${s.url}/#/workflows/${id}`);
  });

  it("follows the agent's output live while `baton run` works, then shows every session's cost summed", async () => {
    await page.locator(`[data-workflow="${id}"]`).waitFor(wait);
    const run = baton(['run', '--agent', 'claude-code', '--warn-at', '0.6'], { FAKE_DELAY_MS: '400' });
    await page.getByTestId('agent-output').locator('.tag-live').waitFor(wait);
    await waitForText(page.getByTestId('agent-output'), 'T2 · s2');
    await waitForText(page.getByTestId('agent-log').locator('[data-kind="tool"]'), '→ Bash');
    await shot('26-agent-output-live');
    expect((await run).code).toBe(0);
    await page.locator(`[data-workflow="${id}"][data-status="completed"]`).waitFor(wait);
    await waitForText(page.getByTestId('usage-cost'), '$0.41');
    await waitForText(page.getByTestId('usage'), 'Cost (2 sessions)');
    // The gauge's warning mark stands where this driver warns (--warn-at 0.6), not at a fixed 70%.
    const status = (await baton(['status', '-w', id, '--json'])).json<{
      capacity_policy: { warn_at: number; pause_at: number } | null;
    }>();
    expect(status.capacity_policy).toEqual({ warn_at: 0.6, pause_at: 0.85 });
    await page.getByTestId('capacity-gauge').locator('[title="capacity warning (60 %)"]').waitFor(wait);
    expect(pageErrors).toEqual([]);
  });

  it('a session the hooks followed ends with a reason in words: it wraps in its card, nothing scrolls sideways', async () => {
    const other = makeRepo();
    const hook = (payload: Record<string, unknown>) =>
      runCli(['hook', 'SessionStart'], {
        cwd: other,
        env,
        input: JSON.stringify({ cwd: other, hook_event_name: 'SessionStart', ...payload }),
      });
    const sid = '019b7f94-51b4-7593-922e-ba12b5b73b52';
    expect((await hook({ session_id: sid, source: 'startup' })).code).toBe(0);
    expect((await hook({ session_id: 'a-second-session-after-clear', source: 'clear' })).code).toBe(0);
    const followed = (await runCli(['status', '--json'], { cwd: other, env })).json<{
      workflow: { id: string };
    }>().workflow.id;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${s.url}/#/workflows/${followed}`);
      await waitForText(page.getByTestId('session-timeline'), new RegExp(`session ${sid} ended`));
      await fitsWidth(page, width);
    }
    await shot('27-hook-sessions-timeline');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
