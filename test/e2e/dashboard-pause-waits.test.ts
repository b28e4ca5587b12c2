import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { corpusPath } from '../helpers/corpus.js';
import { hookWorkspace, stepsSession } from '../helpers/hook-workspace.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

// The pause dialog, the toast and the banner say what the server decided a pause waits for (`pause_waits_for`),
// which is what `baton pause` and `baton status` say: never a guess of the page's own.

type Json = Record<string, any>;
const wait = { timeout: 20_000 };

describe('dashboard: what a pause waits for is what the server says', () => {
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

  /** A workspace with `baton` and the hooks of a Claude Code conversation that keeps its own list (TodoWrite). */
  const workspace = () => {
    const ws = hookWorkspace();
    const { repo, baton, env } = ws;
    const { hook, todo } = stepsSession(ws);
    const status = async () => (await baton(['status', '--json'])).json<Json>();
    const serve = async () => {
      const server = await startServerProcess(env.BATON_HOME, { cwd: repo });
      servers.push(server);
      return server;
    };
    return { baton, hook, todo, status, serve };
  };

  const open = async (server: ServerProcess, id: string) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/#/workflows/${id}`);
    await page.locator(`[data-workflow="${id}"]`).waitFor(wait);
    return page;
  };

  /** Opens the Pause dialog and waits for what it says the pause would wait for. */
  const dialogSays = async (page: Page, text: string) => {
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause workflow' });
    await waitForText(dialog, text);
    return dialog;
  };

  it('a workflow a person resumed, its task left in progress: the pause waits for the task, as the CLI says', async () => {
    const { baton, hook, todo, status, serve } = workspace();
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'in_progress', 'pending');
    await hook('Stop', { last_assistant_message: 'Step 1 is under way.' });
    expect((await baton(['pause'])).stdout).toMatch(/warning: paused between the agent's turns while T1 was/);
    expect((await baton(['resume'])).code).toBe(0);
    // no agent reported into the session the resume opened: nothing is at rest on T1, so its boundary is waited for
    const s = await status();
    expect(s.following_agent).toBe('claude-code');
    expect(s.pause_waits_for).toEqual({ tasks: ['T1'], turn: null });
    const page = await open(await serve(), s.workflow.id as string);
    const dialog = await dialogSays(
      page,
      'The pause waits for the task boundary: it takes effect once T1 (in progress) is done.',
    );
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await waitForText(page.locator('.toast-success'), 'Pause requested: waiting for the task boundary (T1)');
    await waitForText(page.getByTestId('pause-requested'), 'waiting for the task boundary (T1).');
    expect((await status()).workflow).toMatchObject({ status: 'in_progress', pause_requested: true });
    await page.close();
  });

  it('an imported session with a task in progress, which no agent works on: the pause takes effect at once', async () => {
    const { baton, status, serve } = workspace();
    expect((await baton(['create', '--title', 'imported'])).code).toBe(0);
    const rollout =
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    expect((await baton(['import', 'codex', corpusPath(rollout)])).code).toBe(0);
    const s = await status();
    expect(s.tasks.find((t: Json) => t.status === 'in_progress')?.id).toBe('T3');
    expect(s.pause_waits_for).toBeNull();
    const page = await open(await serve(), s.workflow.id as string);
    const dialog = await dialogSays(
      page,
      'No turn of the agent is under way: the workflow pauses now (T3 left in progress) and a snapshot is taken.',
    );
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await waitForText(page.locator('.toast-success'), 'Workflow paused');
    await page.getByTestId('paused-banner').waitFor(wait);
    await page.close();
  });

  it('a pause asked mid-turn waits for the turn alone, though the agent starts a task in it: the banner says so', async () => {
    const { baton, hook, todo, status, serve } = workspace();
    await hook('UserPromptSubmit', { prompt: 'Fix the flaky upload test' });
    const id = (await status()).workflow.id as string;
    const page = await open(await serve(), id);
    const dialog = await dialogSays(
      page,
      "The pause waits for the agent's turn to end, then a snapshot is taken.",
    );
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await waitForText(page.locator('.toast-success'), "Pause requested: waiting for the agent's turn to end");
    await todo('t1', 'in_progress', 'pending');
    expect((await baton(['pause'])).stdout).toMatch(
      /is let finish: the pause takes effect when the agent's turn ends/,
    );
    await page.reload();
    await waitForText(page.getByTestId('pause-requested'), "waiting for the agent's turn to end.");
    expect((await status()).pause_waits_for).toEqual({
      tasks: [],
      turn: { session_number: 1, agent: 'claude-code' },
    });
    await hook('Stop', { last_assistant_message: 'Step 1 is under way.' });
    await page.getByTestId('paused-banner').waitFor(wait);
    await page.close();
  });
});
