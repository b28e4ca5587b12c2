import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { batonProcesses, testDocker, until, writeAgent } from '../helpers/docker.js';
import { gatedEngine } from '../helpers/docker-gate.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 30_000 };

/**
 * The session-resumption design's frontend flow with a real container: the dashboard shows the executor `starting`
 * (spinner, workspace panels disabled) while the container's start is held back in front of the engine, `ready`
 * once its agent host answers, and `error` with Retry after the container was removed while Baton was down.
 */
describe('dashboard: the Docker executor states', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const shots = artifactsDir('dashboard');
  const procs = batonProcesses();
  let dir: string;
  let gate: Awaited<ReturnType<typeof gatedEngine>>;
  let docker: Dockerode;
  let host: string;
  let image: string;
  let s: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    assertDashboardBuilt();
    ({ docker, host, image } = await testDocker());
    dir = mkdtempSync(join(tmpdir(), 'bg-'));
    gate = await gatedEngine(host, dir);
    browser = await launchChromium();
    s = await startServerProcess(home, {
      args: ['--executor', 'docker', '--docker-image', image],
      env: { DOCKER_HOST: host },
    });
  });
  afterAll(async () => {
    await procs.cleanup();
    await browser?.close();
    await s?.stop();
    await gate?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starting (held), ready, then error with Retry once the container is gone', async () => {
    const r = await s.api('/api/workflows', {
      method: 'POST',
      json: { title: 'Agent in a container', worktree: repo, tasks: [{ id: 'T1', title: 'one' }] },
    });
    const id = ((await r.json()) as { id: string }).id;
    const agent = writeAgent(repo);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
    await page.goto(`${s.url}/#/workflows/${id}`);
    await page.locator('[data-live="live"]').waitFor(wait);

    gate.close();
    const env = { BATON_HOME: home, DOCKER_HOST: gate.host };
    const args = [
      '--executor',
      'docker',
      '--docker-image',
      image,
      '--agent',
      'command',
      '--agent-bin',
      agent.bin,
    ];
    const run = procs.spawn(['--json', 'run', ...args], repo, env);
    await until('the container start held back', () => gate.held() > 0);
    const status = page.getByTestId('session-status');
    await status.locator('[data-executor="starting"]').waitFor(wait);
    expect(await status.textContent()).toContain('Agent starting (docker)');
    await page.locator('[aria-disabled="true"].panel-disabled').first().waitFor(wait);
    await page.screenshot({ path: join(shots, '20-docker-starting.png'), fullPage: true });

    gate.open();
    await status.locator('[data-executor="ready"]').waitFor(wait);
    expect(await status.textContent()).toContain('Agent ready (docker)');
    expect(await page.locator('.panel-disabled').count()).toBe(0);
    await until('the agent running in the container', () => agent.runs().length > 0);
    await page.screenshot({ path: join(shots, '21-docker-ready.png'), fullPage: true });

    // Baton dies, the container is removed under it; recovery marks the executor error, the page offers Retry.
    await procs.killHard(run.child);
    const containers = await docker.listContainers({
      all: true,
      filters: JSON.stringify({ label: [`baton.workflow_id=${id}`] }),
    });
    expect(containers).toHaveLength(1);
    await docker.getContainer(containers[0]?.Id ?? '').remove({ force: true });
    const rec = await runCli(['--json', 'executors', 'recover', '--auto-resume', 'none'], {
      cwd: repo,
      env: { BATON_HOME: home, DOCKER_HOST: host, BATON_URL: undefined },
    });
    expect(rec.code, rec.stderr).toBe(0);
    await status.locator('[data-executor="error"]').waitFor(wait);
    const retry = status.getByRole('button', { name: 'Retry' });
    await retry.waitFor(wait);
    await page.locator(`[data-workflow="${id}"][data-status="interrupted"]`).waitFor(wait);
    await page.screenshot({ path: join(shots, '22-docker-error.png'), fullPage: true });
    await retry.click();
    await page.locator(`[data-workflow="${id}"]:not([data-status="interrupted"])`).waitFor(wait);
  }, 120_000);
});
