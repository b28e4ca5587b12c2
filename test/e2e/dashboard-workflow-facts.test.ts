import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { until } from '../helpers/until.js';

// What the workflow page shows besides the briefing, from what the API serves: the status `baton status` gives.

type Json = Record<string, any>;
const wait = { timeout: 20_000 };

const SESSION = '196820da-0000-4000-8000-000000000002';
const lines = readFileSync(corpusPath('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean);
/** The first turn ends on line 113 (the agent's summary); the user's next request is line 115. */
const FIRST_TURN = 114;
const promptOf = (n: number) => (JSON.parse(lines[n]!) as { message: { content: string } }).message.content;

/** Nothing on the page is wider than a phone's 390 px: the new parts hold long paths and commands. */
async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
        .documentElement.scrollWidth,
  );
  expect(width).toBeLessThanOrEqual(390);
}

describe('dashboard: the workflow page says what `baton status` says', () => {
  const shots = artifactsDir('dashboard');
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

  /** A server of its own over a new repository, with one workflow of `tasks` created through the API. */
  const serverWith = async (title: string, tasks: Json[]) => {
    const repo = makeRepo();
    const home = tempDir('baton-home-');
    const server = await startServerProcess(home, { cwd: repo });
    servers.push(server);
    const created = await server.api('/api/workflows', {
      method: 'POST',
      json: { title, worktree: repo, tasks },
    });
    const { id } = (await created.json()) as { id: string };
    return { repo, home, server, id };
  };

  const open = async (server: ServerProcess, id: string) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/#/workflows/${id}`);
    await page.locator(`[data-workflow="${id}"]`).waitFor(wait);
    return page;
  };

  /** A conversation the hooks follow that asked its first request, and a server over the same Baton home. */
  const askedByHooks = async () => {
    const { repo, baton, env } = hookWorkspace();
    const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
    const hook = agentHooks(baton, { cwd: repo, session_id: SESSION, transcript_path: transcript });
    writeFileSync(transcript, `${lines.slice(0, 6).join('\n')}\n`);
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: promptOf(5) });
    const serve = async () => {
      const server = await startServerProcess(env.BATON_HOME, { cwd: repo });
      servers.push(server);
      return server;
    };
    return { baton, hook, serve, transcript };
  };

  /** A conversation the hooks follow whose agent was killed in the middle of its second turn, minutes ago. */
  const killedTurn = async () => {
    const { repo, baton, env } = hookWorkspace();
    const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
    const hook = agentHooks(baton, { cwd: repo, session_id: SESSION, transcript_path: transcript });
    writeFileSync(transcript, '');
    await hook('SessionStart', { source: 'startup' });
    appendFileSync(transcript, `${lines.slice(0, 6).join('\n')}\n`);
    await hook('UserPromptSubmit', { prompt: promptOf(5) });
    appendFileSync(transcript, `${lines.slice(6, FIRST_TURN).join('\n')}\n`);
    expect((await hook('Stop', { stop_hook_active: false })).code).toBe(0);
    // the next turn: the user asks, the agent works, then it is killed before its Stop; minutes pass
    await hook('UserPromptSubmit', { prompt: promptOf(115) });
    appendFileSync(transcript, `${lines.slice(FIRST_TURN).join('\n')}\n`);
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
    utimesSync(transcript, past, past);
    return { repo, baton, env, transcript, past };
  };

  it('a transcript that grew after its agent stopped sending hooks: the resume context reads it first, as `baton context` does, and says so', async () => {
    const { repo, baton, env, transcript } = await killedTurn();
    const cli = (await baton(['status', '--json'])).json<Json>();
    expect(cli.unread_transcripts).toHaveLength(1);
    const id = cli.workflow.id as string;
    const server = await startServerProcess(env.BATON_HOME, { cwd: repo, env: { HOME: env.HOME } });
    servers.push(server);
    const page = await open(server, id);
    await waitForText(page.getByTestId('context-read'), `that ${transcript} gained since Baton last read it`);
    // the briefing holds the killed turn's work: its last request and the agent's last words
    await waitForText(page.getByTestId('resume-context'), 'create document in /specs folder');
    await waitForText(
      page.getByTestId('resume-context'),
      "I've created a comprehensive specification document",
    );
    // read: nothing is said unread any more, on the page (refetched on the events the read wrote) or by the CLI
    for (let until = Date.now() + wait.timeout; Date.now() < until;)
      if ((await page.getByTestId('unread-transcript').count()) === 0) break;
      else await new Promise((r) => setTimeout(r, 100));
    expect(await page.getByTestId('unread-transcript').count()).toBe(0);
    expect((await baton(['status', '--json'])).json<Json>().unread_transcripts).toEqual([]);
    await page.screenshot({ path: join(shots, '20-unread-transcript-read.png'), fullPage: true });
    await page.close();
  });

  it('a transcript that grew by more than a context reads: the status and the page say it, as the CLI does', async () => {
    const { repo, baton, env, transcript, past } = await killedTurn();
    // more than the 8 MB read before a context: left to the `baton import` the banner names
    appendFileSync(
      transcript,
      `${JSON.stringify({ type: 'progress', data: 'x'.repeat(9 * 1024 * 1024) })}\n`,
    );
    utimesSync(transcript, past, past);

    const cli = (await baton(['status', '--json'])).json<Json>();
    expect(cli.unread_transcripts).toHaveLength(1);
    const id = cli.workflow.id as string;

    // the server of the same Baton home reads the hooks' files as the CLI does
    const server = await startServerProcess(env.BATON_HOME, { cwd: repo });
    servers.push(server);
    const res = await server.api(`/api/workflows/${id}/status`);
    expect(res.status, server.report()).toBe(200);
    const status = (await res.json()) as Json;
    expect(status.unread_transcripts).toEqual(cli.unread_transcripts);
    expect(status.gone_agents).toEqual([]);

    const page = await open(server, id);
    await waitForText(page.getByTestId('context-read'), 'more than is read here');
    const banner = page.getByTestId('unread-transcript');
    await waitForText(banner, `Unread transcript: ${transcript} grew by`);
    await waitForText(banner, `baton import -w ${id} ${transcript}`);
    await waitForText(banner, 'no agent seen at work on it');
    await page.screenshot({ path: join(shots, '20-unread-transcript.png'), fullPage: true });
    await fitsPhone(page);
    await page.close();
  });

  it('a turn a usage limit stopped: the page says when it lifts, as `baton status` does', async () => {
    const { baton, hook, serve } = await askedByHooks();
    const notice = "You've hit your session limit · resets 11:40pm (UTC)";
    expect((await hook('StopFailure', { error: 'rate_limit', last_assistant_message: notice })).code).toBe(0);
    const cli = (await baton(['status', '--json'])).json<Json>();
    expect(cli.usage_limit).toMatch(/^stopped by a usage limit of Claude Code, session 1, resets at /);
    const server = await serve();
    const page = await open(server, cli.workflow.id as string);
    await waitForText(
      page.getByTestId('usage-limit'),
      `The agent's last turn was ${cli.usage_limit as string}.`,
    );
    await page.close();
  });

  it("a pause asked while the agent's turn is under way says it waits for the turn's end, and does", async () => {
    const { baton, hook, serve } = await askedByHooks();
    const id = (await baton(['status', '--json'])).json<Json>().workflow.id as string;
    const server = await serve();
    const page = await open(server, id);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause workflow' });
    await waitForText(dialog, "The pause waits for the agent's turn to end, then a snapshot is taken.");
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await waitForText(page.locator('.toast-success'), "Pause requested: waiting for the agent's turn to end");
    await waitForText(page.getByTestId('pause-requested'), "waiting for the agent's turn to end");
    // the agent's Stop pauses it
    expect((await hook('Stop', { stop_hook_active: false })).code).toBe(0);
    await page.getByTestId('paused-banner').waitFor(wait);
    await page.close();
  });

  it('Resume of a workflow the hooks follow starts no agent: the toast and the session status say its next session goes on', async () => {
    const { baton, hook, serve, transcript } = await askedByHooks();
    // the first turn, with the usage its transcript says
    appendFileSync(transcript, `${lines.slice(6, FIRST_TURN).join('\n')}\n`);
    await hook('Stop', { stop_hook_active: false });
    await hook('SessionEnd', { reason: 'prompt_input_exit' });
    expect((await baton(['pause', '--reason', 'end of day'])).code).toBe(0);
    const paused = (await baton(['status', '--json'])).json<Json>();
    const id = paused.workflow.id as string;
    const pct = Math.round((paused.usage.context_utilization as number) * 100);
    expect(pct).toBeGreaterThan(0);
    const server = await serve();
    const page = await open(server, id);
    // the session panel says what the Resume at the head of the page does here, as its toast does
    await waitForText(
      page.getByTestId('session-resume'),
      'Resume, at the top of the page, opens session 2; no agent is started here: the next prompt or session of the agent whose hooks follow it goes on with it.',
    );
    expect(await page.getByTestId('session-resume').textContent()).not.toContain('starts the next session');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await waitForText(
      page.locator('.toast-success'),
      'no agent is started here: the next prompt or session of the agent whose hooks follow it goes on with it',
    );
    // session 2 has read no context yet: the gauge shows session 1's last reading, saying whose it is
    await waitForText(page.getByTestId('capacity-gauge'), `${pct}% of the context window`);
    await waitForText(
      page.getByTestId('gauge-said'),
      "(session 1's last reading: session 2 has reported none yet)",
    );
    await page.close();
    const session = (await baton(['session-status', '--json'])).json<Json>();
    expect(session).toMatchObject({ is_agent_running: false, is_resumable: true, resume_by: 'next_session' });
    expect(session.agent_running_note).toBe(
      'no (no Claude Code session has reported into it yet); the next Claude Code session in its worktree goes on with it',
    );
    const rows = (await baton(['sessions', '--json'])).json<{ sessions: Json[] }>();
    expect(rows.sessions[0]).toMatchObject({ resumable: true, resume_by: 'next_session' });
  });

  it('a session on a detached HEAD: the session panel says so in words, as `baton session-status` does', async () => {
    const { repo, baton, env } = hookWorkspace();
    execFileSync('git', ['checkout', '-q', '--detach'], { cwd: repo });
    const hook = agentHooks(baton, { cwd: repo, session_id: SESSION });
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: promptOf(5) });
    expect((await baton(['session-status'])).stdout).toContain(`worktree: ${repo} (a detached HEAD)`);
    const id = (await baton(['status', '--json'])).json<Json>().workflow.id as string;
    const server = await startServerProcess(env.BATON_HOME, { cwd: repo });
    servers.push(server);
    const page = await open(server, id);
    const panel = page.getByTestId('session-status');
    await waitForText(panel, `${repo} on a detached HEAD`);
    expect(await panel.textContent()).not.toContain('(detached)');
    await page.close();
  });

  it('shows the open errors, the tests and the git state in parts of their own, from what the API serves', async () => {
    const repo = makeRepo();
    const server = await startServerProcess(tempDir('baton-home-'), { cwd: repo });
    servers.push(server);
    const post = async (path: string, json: unknown) => {
      const r = await server.api(path, { method: 'POST', json });
      expect(r.status, await r.clone().text()).toBeLessThan(300);
      return (await r.json()) as Json;
    };
    const { id } = await post('/api/workflows', {
      title: 'Facts',
      worktree: repo,
      tasks: [{ id: 'T1', title: 'Parse dates' }],
    });
    await post(`/api/workflows/${id}/tasks/T1/start`, { note: null });
    await post(`/api/workflows/${id}/errors`, {
      error_type: 'TypeError',
      error_message: 'parse() got undefined',
    });
    await post(`/api/workflows/${id}/errors`, {
      error_type: 'Build',
      error_message: 'tsc failed once',
      resolution: 'fixed',
    });
    // the API failing under the agent, the last thing it met: the stop of its turn, no open error of the work
    await post(`/api/workflows/${id}/errors`, {
      error_type: 'agent_error',
      error_message:
        'agent: API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    await post(`/api/workflows/${id}/test-runs`, {
      phase: 'red',
      failing_tests: ['parses ISO dates'],
      last_test_command: 'npm test',
      failed: 1,
      passed: 4,
    });
    writeFileSync(join(repo, 'dates.ts'), 'export const parse = () => null;\n');

    const page = await open(server, id);
    const part = page.getByTestId('work-state');
    await waitForText(part.getByTestId('open-errors'), 'Open errors (1)');
    await waitForText(part.getByTestId('errors'), 'parse() got undefined');
    // the open ones only: a resolved error is the history's
    expect(await part.getByText('tsc failed once').count()).toBe(0);
    expect(await part.getByText(/overloaded_error/).count()).toBe(0);
    await waitForText(part.getByTestId('tdd-state'), 'parses ISO dates');
    await waitForText(part.getByTestId('tdd-state'), 'npm test');
    // the worktree now: its branch and the file not committed
    await waitForText(part.getByTestId('git-state'), 'dates.ts');
    await page.screenshot({ path: join(shots, '21-work-state.png'), fullPage: true });
    await fitsPhone(page);
    await page.screenshot({ path: join(shots, '21-work-state-390.png'), fullPage: true });

    // a snapshot of it lists the API failure as `baton details errors` does: the same api_failure, the same words
    const cp = await post(`/api/workflows/${id}/checkpoints`, { name: 'facts' });
    const sid = cp.checkpoint.snapshot_id as string;
    const snapPath = `/api/workflows/${id}/snapshots/${sid}`;
    const failureOf = (errors: Json[]) => errors.find((e) => e.error_type === 'agent_error')?.api_failure;
    expect(failureOf(((await (await server.api(snapPath)).json()) as Json).errors)).toBe('cut_off');
    expect(failureOf((await (await server.api(`${snapPath}/errors`)).json()) as Json[])).toBe('cut_off');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/#/workflows/${id}/snapshots/${sid}`);
    const errors = page.getByTestId('snapshot-detail').getByTestId('errors');
    await waitForText(errors, 'parse() got undefined');
    const failure = errors.locator('li', { hasText: 'overloaded_error' });
    await waitForText(failure, 'API failure: cut off the last turn');
    expect(await failure.locator('[data-status="api_failure"]').count()).toBe(1);
    expect(await failure.locator('[data-status="unresolved"]').count()).toBe(0);
    await page.close();
  });

  it('after a Resume the work state keeps the git state it read until the new one comes, rather than a spinner', async () => {
    const { server, id } = await serverWith('Keeps its git state', [{ id: 'T1', title: 'Parse dates' }]);
    const post = (path: string, json: Json) => server.api(path, { method: 'POST', json });
    expect((await post(`/api/workflows/${id}/tasks/T1/start`, { note: null })).status).toBe(200);
    expect((await post(`/api/workflows/${id}/pause`, { reason: 'lunch', force: true })).status).toBe(200);
    const page = await open(server, id);
    const part = page.getByTestId('work-state');
    await waitForText(part.getByTestId('git-state'), 'main');
    // the git state of the workflow as the Resume leaves it is held back, so the wait for it can be looked at
    const before = ((await (await server.api(`/api/workflows/${id}/status`)).json()) as Json).workflow
      .version;
    const held: { url: string; go: () => void }[] = [];
    let holding = true;
    await page.route('**/git-changes', async (route) => {
      if (holding) await new Promise<void>((go) => held.push({ url: route.request().url(), go }));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await waitForText(page.locator('.toast-success'), 'Workflow resumed');
    // the workflow as it stands after the Resume: a live snapshot of another name
    await until('the new git state to be asked for', () =>
      held.some((h) => !h.url.includes(`/live-${before}/`)),
    );
    // while it is on its way, the one read before stays on screen
    expect(await part.getByRole('progressbar', { name: 'reading the git state' }).count()).toBe(0);
    expect(await part.getByTestId('git-state').textContent()).toContain('main');
    // and then the new one takes its place
    holding = false;
    for (const h of held) h.go();
    await page.unrouteAll({ behavior: 'wait' });
    await page.waitForLoadState('networkidle');
    expect(await part.getByTestId('git-state').textContent()).toContain('main');
    await page.close();
  });

  it('after Abandon, the task that was under way reads left open, nowhere in progress, as `baton status` says it', async () => {
    const { repo, home, server, id } = await serverWith('Left behind', [
      { id: 'T1', title: 'Parse dates' },
      { id: 'T2', title: 'Format dates', deps: ['T1'] },
    ]);
    expect(
      (await server.api(`/api/workflows/${id}/tasks/T1/start`, { method: 'POST', json: { note: null } }))
        .status,
    ).toBe(200);

    const page = await open(server, id);
    await page.locator('[data-task="T1"][data-status="in_progress"]').waitFor(wait);
    await page.getByRole('button', { name: 'Abandon', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Abandon workflow' });
    await dialog.getByRole('button', { name: 'Abandon' }).click();
    await page.locator(`[data-workflow="${id}"][data-status="cancelled"]`).waitFor(wait);
    await page.locator('[data-task="T1"][data-status="left_open"]').waitFor(wait);
    await page.locator('[data-task="T2"][data-status="left_open"]').waitFor(wait);
    expect(await page.getByTestId('task-list').getByText('in progress').count()).toBe(0);
    // the session status names no task under way (its own fetch: waited for)
    const current = page.locator('dt', { hasText: 'Current task' }).locator('xpath=following-sibling::dd[1]');
    for (let until = Date.now() + wait.timeout; Date.now() < until;)
      if ((await current.textContent()) === '-') break;
      else await new Promise((r) => setTimeout(r, 100));
    expect(await current.textContent()).toBe('-');
    await page.screenshot({ path: join(shots, '22-abandoned-left-open.png'), fullPage: true });
    // nor does the list name it as the next task
    await page.goto(`${server.url}/#/`);
    const row = page.getByTestId('workflow-list').locator('tr', { hasText: 'Left behind' });
    await row.waitFor(wait);
    expect(await row.locator('[data-label="Next task"]').textContent()).toBe('-');

    // the API and the CLI say the same
    const status = (await (await server.api(`/api/workflows/${id}/status`)).json()) as Json;
    expect(status.left_open).toEqual([
      { id: 'T1', title: 'Parse dates', status: 'in_progress' },
      { id: 'T2', title: 'Format dates', status: 'pending' },
    ]);
    expect(status.next_task).toBeNull();
    const cli = await runCli(['status', '-w', id], { cwd: repo, env: { BATON_HOME: home } });
    expect(cli.stdout).toContain('tasks: 0/2 done, 2 left open (T1, T2)');
    expect(cli.stdout).not.toMatch(/in progress/);
    await page.close();
  });

  it('the list names the branch of each workflow and counts its failed tasks', async () => {
    const { repo, server, id } = await serverWith('Deploy', [{ id: 'T1', title: 'Deploy to staging' }]);
    for (const action of ['start', 'fail'])
      expect(
        (await server.api(`/api/workflows/${id}/tasks/T1/${action}`, { method: 'POST', json: {} })).status,
      ).toBe(200);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/#/`);
    const row = page.getByTestId('workflow-list').locator('tr', { hasText: 'Deploy' });
    await row.waitFor(wait);
    await waitForText(row.getByTestId('failed-tasks'), '1 failed');
    await waitForText(row.locator('[data-label="Workflow"]'), `${id} · main · ${repo}`);
    // no agent reported usage: said so, not a row of zeros
    await page.goto(`${server.url}/#/workflows/${id}`);
    await waitForText(page.getByTestId('usage-none'), 'No usage reported');
    expect(await page.getByTestId('usage-totals').count()).toBe(0);
    await page.close();
  });
});
