import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueStanding } from '../../src/core/index.js';
import { openStore } from '../../src/storage/open-store.js';
import { fakeClaude } from '../helpers/agent-workspace.js';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { spawnWorker, teamWork, type WorkerProcess } from '../helpers/worker-team.js';

const started: WorkerProcess[] = [];
const worker = (...a: Parameters<typeof spawnWorker>) => {
  const w = spawnWorker(...a);
  started.push(w);
  return w;
};
afterEach(async () => {
  for (const w of started.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await w.exited;
  }
});

/**
 * Queued work nothing can take (no worker runs, none that runs reaches it, or the one that did died): `baton status`
 * through a server and the dashboard's workflow page say so and name the `baton worker` that would; while a worker
 * that reaches it runs, they say it waits for one, or that one runs it. Real worker processes on one SQLite file,
 * the server on it, real HTTP and Chromium.
 */
describe('queued work that nothing can take', () => {
  const shots = artifactsDir('dashboard');
  let browser: Browser;
  let s: ServerProcess;
  let page: Page;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('baton status and the dashboard say it and name the worker that would, until one takes it, and when it dies', async () => {
    const db = join(tempDir('baton-untaken-'), 'baton.db');
    const team = await teamWork(db, 1);
    const item = team.items[0]!;
    const root = dirname(item.repo);
    s = await startServerProcess(tempDir('baton-serve-home-'), { env: { BATON_DATABASE_URL: db } });
    const env = { BATON_HOME: tempDir('baton-dev-home-'), BATON_URL: s.url, BATON_TOKEN: s.token };
    const cli = (...args: string[]) => runCli(args, { cwd: item.repo, env });
    const standing = async () =>
      (await cli('--json', 'status')).json<{ queue: QueueStanding | null }>().queue;
    const banner = async () => {
      await page.goto(`${s.url}/#/workflows/${item.id}`);
      const b = page.getByTestId('queue');
      await b.waitFor({ timeout: 20_000 });
      return b;
    };

    // before it is queued, nothing is said of a queue
    expect(await standing()).toBeNull();
    const sent = await cli('submit', '--agent', 'claude-code', '--agent-bin', fakeClaude);
    expect(sent.code, sent.stderr).toBe(0);

    // no worker at all
    const none = await cli('status');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain(
      `queue: queued (priority 0), and nothing can take it: no worker is registered: none runs, or a \`baton worker\` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary); start a worker that would: \`baton worker --worktree-root ${root}\``,
    );
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
    const b = await banner();
    expect(await b.getAttribute('data-queue')).toBe('stuck');
    await waitForText(
      b,
      'Queued for the workers, and nothing can take it: no worker is registered: none runs, or a',
    );
    expect(await b.locator('code').allTextContents()).toContain(`baton worker --worktree-root ${root}`);
    await page.screenshot({ path: join(shots, '31-queue-nothing-takes-it.png'), fullPage: true });

    // a worker runs, but takes other work only
    const elsewhere = tempDir('baton-elsewhere-');
    const other = worker(db, ['--worktree-root', elsewhere, '--poll', '100ms']);
    await until('the other worker to start', () => other.lines().some((l) => l.event === 'worker.started'));
    const wrong = `1 worker runs, but no --worktree-root of theirs holds ${item.repo}`;
    expect((await standing())?.stuck).toEqual({
      reason: wrong,
      command: `baton worker --worktree-root ${root}`,
    });
    expect((await cli('status')).stdout).toContain(
      `nothing can take it: ${wrong}; start a worker that would`,
    );
    // the open page follows it: a worker starting writes no event of the workflow, so the page asks again
    await waitForText(b, wrong, 20_000);

    // a worker that reaches it takes it; killed mid-task, nothing else can take it: the one that could is gone
    const gate = join(tempDir('baton-gate-'), 'gate');
    const here = worker(db, ['--worktree-root', root, '--poll', '100ms', '--lease-ttl', '1s'], {
      FAKE_GATE: gate,
      FAKE_DELAY_MS: '50',
    });
    await until('the task under way', () =>
      here.lines().some((l) => l.event === 'task.started' && l.workflow_id === item.id),
    );
    expect(await standing()).toEqual({ state: 'running', priority: 0, takers: 1, stuck: null });
    expect((await cli('status')).stdout).toContain('queue: queued (priority 0), a worker runs it');
    await page.locator('[data-testid="queue"][data-queue="running"]').waitFor({ timeout: 20_000 });
    here.child.kill('SIGKILL');
    await here.exited;
    await until('the status to say the worker that could take it is gone', async () =>
      ((await standing())?.stuck?.reason ?? '').startsWith(
        'the worker that could take it stopped heartbeating',
      ),
    );
    const gone = await standing();
    expect(gone?.stuck?.reason).toContain(`(pid ${here.child.pid} on `);
    expect(gone?.stuck?.command).toBe(`baton worker --worktree-root ${root}`);
    const said = await cli('status');
    expect(said.stdout).toContain('nothing can take it: the worker that could take it stopped heartbeating');
    await page.locator('[data-testid="queue"][data-queue="stuck"]').waitFor({ timeout: 20_000 });
    await waitForText(b, 'the worker that could take it stopped heartbeating', 20_000);
    await page.screenshot({ path: join(shots, '32-queue-worker-gone.png'), fullPage: true });

    // a worker that stops takes itself out of the registry; the dead one's row stays, expired, to be named
    other.child.kill('SIGTERM');
    expect(await other.exited).toBe(0);
    const store = await openStore({ database: db });
    try {
      const rows = (await store.workers?.list()) ?? [];
      expect(rows.map((r) => [r.pid, r.expired])).toEqual([[here.child.pid, true]]);
    } finally {
      await store.close();
    }
    await page.close();
  }, 120_000);
});
