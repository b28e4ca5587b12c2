import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { team as twoClones } from '../helpers/teammates.js';

// On a database a team shares, the dashboard says whose each workflow is: the person it serves is the git identity
// where `baton serve` runs, as the CLI tells theirs from a teammate's where it runs.

const wait = { timeout: 20_000 };
const ANA = 'ana@team.example';
const BEN = 'ben@team.example';

/**
 * Ana and Ben, each with a clone of one origin and a HOME of their own, on one store: Ana's identity in her clone's
 * config, Ben's only in his environment. Each clone's agent (the hooks) starts a workflow that holds an open error.
 */
async function team(shared: Record<string, string>) {
  const origin = makeRepo('baton-origin-');
  const clone = (who: string) => {
    const dir = join(tempDir(`baton-${who}-`), 'app');
    gitIn(origin, 'clone', '-q', origin, dir);
    return dir;
  };
  const ana = clone('ana');
  gitIn(ana, 'config', 'user.email', ANA);
  const ben = clone('ben');
  const envs = {
    [ana]: { ...shared, HOME: tempDir('baton-user-') },
    [ben]: { ...shared, HOME: tempDir('baton-user-'), GIT_AUTHOR_EMAIL: BEN, GIT_COMMITTER_EMAIL: BEN },
  };
  const baton = (repo: string, ...args: string[]) => runCli(args, { cwd: repo, env: envs[repo] });
  const work = async (repo: string, sid: string, prompt: string) => {
    const hook = (event: string, fields: Record<string, unknown>) =>
      runCli(['hook', event], {
        cwd: repo,
        env: envs[repo],
        input: JSON.stringify({ cwd: repo, hook_event_name: event, session_id: sid, ...fields }),
      });
    expect((await hook('SessionStart', { source: 'startup' })).code).toBe(0);
    expect((await hook('UserPromptSubmit', { prompt })).code).toBe(0);
    await hook('Stop', { stop_hook_active: false });
    const e = await baton(repo, 'record', 'error', '--type', 'test_failure', '--message', `FAIL ${prompt}`);
    expect(e.code, e.stderr).toBe(0);
  };
  return { ana, ben, envs, baton, work };
}

describe.runIf(process.platform === 'linux')('dashboard: whose each workflow is on a shared store', () => {
  const shots = artifactsDir('dashboard');
  let browser: Browser;
  let server: ServerProcess | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
  });
  afterEach(async () => {
    await page?.close();
    await server?.stop();
    server = undefined;
  });
  afterAll(async () => browser?.close());

  const open = async (s: ServerProcess, hash: string) => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
    await page.goto(`${s.url}/${hash}`);
    return page;
  };

  it("on PostgreSQL a teammate's workflow is named theirs: its owner, what waits for them, where a Resume goes on", async () => {
    const { ana, ben, envs, baton, work } = await team({
      BATON_DATABASE_URL: await freshPostgresUrl('baton_dash_team'),
    });
    await work(ana, 'ana-1', 'stabilise the flaky login test');
    expect((await baton(ana, 'pause', '--force', '--reason', 'lunch')).code).toBe(0);
    await work(ben, 'ben-1', 'speed up the search page');
    const anas = (await baton(ana, 'status', '--json')).json<{ workflow: { id: string } }>().workflow.id;

    // Ben's own dashboard: `baton serve` in his clone, with his identity
    server = await startServerProcess(tempDir('baton-home-'), { cwd: ben, env: envs[ben] });
    const p = await open(server, '#/');
    const list = p.getByTestId('workflow-list');
    const row = (title: string) => list.locator('tbody tr', { hasText: title });
    await row('stabilise the flaky login test').waitFor(wait);
    // the owners come with the sessions table, read beside the list
    await waitForText(list.locator('th', { hasText: /^Owner$/ }), 'Owner');
    expect(await row('stabilise').getByTestId('owner').textContent()).toBe(ANA);
    expect(await row('speed up').getByTestId('owner').textContent()).toBe(`${BEN} (you)`);
    // her error waits for her; his for him, and his row comes first
    expect(await row('stabilise').getByTestId('needs-you').count()).toBe(0);
    await waitForText(row('stabilise').getByTestId('needs-owner'), `needs ${ANA}`);
    await waitForText(row('speed up').getByTestId('needs-you'), 'needs you');
    expect((await list.locator('tbody tr a.strong').allTextContents())[0]).toBe('speed up the search page');

    // her paused workflow among the resumable sessions: hers, and a Resume says where it goes on
    const resumable = p.getByTestId('resumable-sessions').locator('tbody tr', { hasText: 'stabilise' });
    expect(await resumable.getByTestId('owner').textContent()).toBe(ANA);
    await waitForText(resumable.getByTestId('needs-owner'), `needs ${ANA}`);
    await p.screenshot({ path: join(shots, '40-teammates-list.png'), fullPage: true });
    // its Resume asks first, naming whose it is; Cancel sends nothing: hers stays paused, in its one session
    const asked = p.getByRole('dialog', { name: 'Not your workflow' });
    const anaStatus = async () =>
      (await baton(ana, 'status', '--json')).json<{ workflow: Record<string, unknown> }>().workflow;
    await resumable.getByRole('button', { name: 'Resume' }).click();
    await waitForText(
      asked.getByTestId('theirs-confirm'),
      `This is ${ANA}'s workflow, not yours: resume it anyway? They and their agent will be told.`,
    );
    await p.screenshot({ path: join(shots, '44-teammate-resume-asked.png'), fullPage: true });
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'hidden', ...wait });
    expect(await p.locator('.toast').count()).toBe(0);
    expect(await anaStatus()).toMatchObject({ status: 'paused', session_count: 1, teammate_act: null });
    // confirmed, it is sent as meant: her next session, and she is told who resumed it
    await resumable.getByRole('button', { name: 'Resume' }).click();
    await asked.getByRole('button', { name: 'Resume anyway' }).click();
    await waitForText(
      p.locator('.toast'),
      `session 2 started; not yours: ${ANA}'s agent goes on with it, in their worktree ${ana}`,
    );
    expect(await anaStatus()).toMatchObject({ session_count: 2, teammate_act: { act: 'resumed', by: BEN } });

    // her workflow's page says it is not his; his own says nothing of owners
    await p.goto(`${server.url}/#/workflows/${anas}`);
    await waitForText(
      p.getByTestId('teammate'),
      `${ANA}'s Not yours: ${ANA}'s agent goes on with it, in their`,
    );
    await p.screenshot({ path: join(shots, '41-teammate-workflow.png'), fullPage: true });
    // its Pause dialog says whose it is; paused from it, she is told who paused it and why
    await p.getByRole('button', { name: 'Pause', exact: true }).click();
    const pause = p.getByRole('dialog', { name: 'Pause workflow' });
    await waitForText(
      pause.getByTestId('theirs-confirm'),
      `This is ${ANA}'s workflow, not yours: pause it anyway?`,
    );
    await pause.getByLabel('Reason (optional)').fill('ben checks the login fix');
    await pause.getByRole('button', { name: 'Pause anyway' }).click();
    await pause.waitFor({ state: 'hidden', ...wait });
    expect(await p.locator('.toast-error').count()).toBe(0);
    expect(await anaStatus()).toMatchObject({
      teammate_act: { by: BEN, reason: 'ben checks the login fix' },
    });
    // its Abandon dialog asks the same; Cancel leaves it as it was
    await p.getByRole('button', { name: 'Abandon', exact: true }).click();
    const abandon = p.getByRole('dialog', { name: 'Abandon workflow' });
    await waitForText(
      abandon.getByTestId('theirs-confirm'),
      `This is ${ANA}'s workflow, not yours: abandon it anyway?`,
    );
    expect(await abandon.getByRole('button', { name: 'Abandon anyway' }).count()).toBe(1);
    await abandon.getByRole('button', { name: 'Cancel' }).click();
    await abandon.waitFor({ state: 'hidden', ...wait });
    expect(await anaStatus()).toMatchObject({ status: 'paused' });
    const bens = (await baton(ben, 'status', '--json')).json<{ workflow: { id: string } }>().workflow.id;
    await p.goto(`${server.url}/#/workflows/${bens}`);
    await p.locator(`[data-workflow="${bens}"]`).waitFor(wait);
    expect(await p.getByTestId('teammate').count()).toBe(0);
  });

  it("at the same path in Ben's clone (devcontainers), her recovery page plans nothing from his branch", async () => {
    const { ana, benEnv, hook, baton, follows, cloneAt } = await twoClones('sqlite');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    expect((await baton(ana, 'checkpoint', '--name', 'start')).code).toBe(0);
    expect((await baton(ana, 'pause', '--force')).code).toBe(0);
    // her container is gone; Ben's clone is at the very same path, with a commit of his own
    renameSync(ana, `${ana}-ana`);
    const ben = cloneAt(ana);
    writeFileSync(join(ben, 'ben.go'), 'package cli\n');
    gitIn(ben, 'add', 'ben.go');
    gitIn(ben, 'commit', '-q', '-m', 'add ben.go');

    server = await startServerProcess(benEnv.BATON_HOME!, { cwd: ben, env: benEnv });
    const p = await open(server, `#/workflows/${anas}/recover`);
    const option = p.locator('[data-option="checkpoint"]');
    await waitForText(
      option.getByTestId('their-checkpoint'),
      `its branch and files go back only in their worktree ${ana}`,
    );
    await waitForText(
      option.getByTestId('git-changes'),
      'left as it is (only the records go back from here)',
    );
    expect(await option.getByTestId('commits-leaving').count()).toBe(0);
    expect(await option.textContent()).not.toMatch(/moves from|add ben\.go|already at the checkpoint/);
    await p.screenshot({ path: join(shots, '42-teammate-recovery-same-path.png'), fullPage: true });
  });

  it("on PostgreSQL her checkpoint's card offers Ben only its records: whose it is, where it is restored, no restore that fails", async () => {
    const { ana, ben, benEnv, hook, baton, follows } = await twoClones('postgres');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    expect((await baton(ana, 'checkpoint', '--name', 'start')).code).toBe(0);
    writeFileSync(join(ana, 'login.go'), 'package cli\n');
    gitIn(ana, 'add', 'login.go');
    gitIn(ana, 'commit', '-q', '-m', 'add login.go');
    expect((await baton(ana, 'pause', '--force')).code).toBe(0);
    const heads = () => [ana, ben].map((r) => gitIn(r, 'rev-parse', 'HEAD').trim());
    const before = heads();

    // Ben's own dashboard: `baton serve` in his clone, with his identity
    server = await startServerProcess(tempDir('baton-home-'), { cwd: ben, env: benEnv });
    const p = await open(server, `#/workflows/${anas}/recover`);
    const card = p.locator('[data-option="checkpoint"]');
    const note = card.getByTestId('their-checkpoint');
    await waitForText(note, `${ANA}'s checkpoint`);
    const said = (await note.textContent()) ?? '';
    expect(said).toContain(`its branch and files go back only in their worktree ${ana}, by them`);
    expect(said).toMatch(new RegExp(`baton recover -w ${anas} --checkpoint \\S*start`));
    expect(said).toContain('Restore only the records');
    expect(await card.getByRole('button', { name: 'Restore this checkpoint' }).count()).toBe(0);
    expect(await card.textContent()).not.toMatch(/--state-only|moves from|add login\.go/);
    await p.screenshot({ path: join(shots, '43-teammate-checkpoint-card.png'), fullPage: true });

    // the records alone, asked first as her resume is: a new session of hers, both clones as they were
    await card.getByRole('button', { name: 'Restore only the records' }).click();
    const asked = p.getByRole('dialog', { name: 'Not your workflow' });
    await waitForText(
      asked.getByTestId('theirs-confirm'),
      `This is ${ANA}'s workflow, not yours: recover it anyway?`,
    );
    await asked.getByRole('button', { name: 'Recover anyway' }).click();
    await waitForText(p.locator('.toast'), `session 2 started`);
    expect(await p.locator('.toast').textContent()).toContain(
      `not yours: ${ANA}'s agent goes on with it, in their worktree ${ana}`,
    );
    expect(heads()).toEqual(before);
    const status = (await baton(ana, 'status', '--json')).json<{ workflow: Record<string, unknown> }>();
    expect(status.workflow).toMatchObject({ session_count: 2 });
  });

  it('a server where no git identity is set says it cannot tell whose are yours; one person alone sees no owners', async () => {
    const shared = { BATON_HOME: tempDir('baton-home-') };
    const { ana, ben, baton, work } = await team(shared);
    await work(ana, 'ana-1', 'stabilise the flaky login test');

    // Ana alone on her own SQLite store: as before, no owners, her error needs her ("you")
    server = await startServerProcess(shared.BATON_HOME, { cwd: ana, env: { HOME: tempDir('baton-user-') } });
    let p = await open(server, '#/');
    const list = p.getByTestId('workflow-list');
    await waitForText(list.getByTestId('needs-you'), 'needs you');
    expect(await list.locator('th', { hasText: /^Owner$/ }).count()).toBe(0);
    expect(await p.getByTestId('no-identity').count()).toBe(0);
    await page?.close();
    await server.stop();

    // Ben's workflow joins the store; a server run outside both clones, with no identity, cannot tell whose is whose
    await work(ben, 'ben-1', 'speed up the search page');
    expect((await baton(ben, 'list')).stdout).toContain('OWNER');
    server = await startServerProcess(shared.BATON_HOME, {
      cwd: tempDir('baton-serve-'),
      env: { HOME: tempDir('baton-user-') },
    });
    p = await open(server, '#/');
    await waitForText(p.getByTestId('no-identity'), 'cannot tell yours from a teammate');
    await waitForText(p.getByTestId('workflow-list').locator('th', { hasText: /^Owner$/ }), 'Owner');
    expect(await p.getByTestId('workflow-list').getByTestId('needs-you').count()).toBe(2);

    // the page cannot tell his is a teammate's, but the server can (by the clone at its worktree, whose identity is
    // not Ben's here): its Pause comes back refused as his, and is asked about then, naming him
    const bens = (await baton(ben, 'status', '--json')).json<{ workflow: { id: string } }>().workflow.id;
    await p.goto(`${server.url}/#/workflows/${bens}`);
    await p.getByRole('button', { name: 'Pause', exact: true }).click();
    const pause = p.getByRole('dialog', { name: 'Pause workflow' });
    expect(await pause.getByTestId('theirs-confirm').count()).toBe(0);
    await pause.getByRole('button', { name: 'Pause', exact: true }).click();
    const asked = p.getByRole('dialog', { name: 'Not your workflow' });
    await waitForText(
      asked.getByTestId('theirs-confirm'),
      `This is ${BEN}'s workflow, not yours: pause it anyway?`,
    );
    expect(await p.locator('.toast').count()).toBe(0);
    await asked.getByRole('button', { name: 'Pause anyway' }).click();
    await waitForText(p.locator('.toast'), 'Workflow paused');
    const status = (await baton(ben, 'status', '--json')).json<{ workflow: Record<string, unknown> }>();
    expect(status.workflow).toMatchObject({ status: 'paused' });
  });
});
