import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { fakeCodex } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

const wait = { timeout: 20_000 };
/** A real `claude -p --output-format stream-json --verbose` run (Claude Code 2.1.138): text, 11 tool calls, a result. */
const capture = fileURLToPath(
  new URL('../fixtures/corpus/stream-json/trackgentic/stream.jsonl', import.meta.url),
);

/**
 * The agent's output in the dashboard, in real Chromium against a real `baton serve`: `baton run` drives an agent
 * that prints a real Claude Code stream-json capture (and a line of its own, and one on standard error); the task
 * log reads as what the agent did, and "Raw" shows it as it came.
 */
describe('dashboard: the agent output in words', () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const shots = artifactsDir('dashboard');
  let s: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    assertDashboardBuilt();
    browser = await launchChromium();
    s = await startServerProcess(home, { cwd: repo });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  /** The workflow's page, signed in, with the page's errors collected. */
  async function openWorkflow(id: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(s.token)})`);
    await page.goto(`${s.url}/#/workflows/${id}`);
    return { page, errors };
  }

  it("shows the assistant's text, each tool call on one line, results shortened, the result; unknown lines as they are", async () => {
    const env = { BATON_HOME: home, BATON_URL: undefined };
    const created = await runCli(['--json', 'create', '--title', 'Readable output', '--task', 'T1:one'], {
      cwd: repo,
      env,
    });
    const id = created.json<{ id: string }>().id;
    const agent = join(tempDir('baton-agent-'), 'agent.sh');
    writeFileSync(
      agent,
      `#!/bin/sh\necho 'a line of my own'\necho 'the disk is slow' >&2\ncat '${capture}'\n`,
    );
    chmodSync(agent, 0o755);
    const run = await runCli(['run', '--agent', 'claude-code', '--agent-bin', agent], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);

    const { page, errors } = await openWorkflow(id);
    const log = page.getByTestId('agent-log');
    const kind = (k: string) => log.locator(`[data-kind="${k}"]`);
    await waitForText(kind('result'), 'Result (success, 13 turns, 138.9 s, $0.12): It seems', wait.timeout);
    await waitForText(
      kind('text').first(),
      "Pong! I'm the library developer agent for the **trackgentic** project",
    );
    await waitForText(kind('system').nth(2), 'session started · model glm-5.1');
    expect(await kind('tool').count()).toBe(11);
    expect(await kind('tool').nth(1).textContent()).toBe(
      '→ Bash cd /Users/javi/projects/trackgentic/packages/library && git log --oneline -20',
    );
    // the 22 KB file the agent read: one line, with what was left out
    const read = (await kind('tool-result').first().textContent()) ?? '';
    expect(read).toMatch(
      /^ {2}← 1\t# Library Developer Expertise Index ⏎ .*… \(\+\d+ chars\) \(121 lines\)$/,
    );
    expect(read.length).toBeLessThan(300);
    expect(await kind('tool-error').count()).toBe(2);
    // what is not stream-json: as it came, standard error marked
    expect(await kind('raw').first().textContent()).toBe('a line of my own');
    expect(await kind('stderr').first().textContent()).toBe('stderr: the disk is slow');
    const shown = (await log.textContent()) ?? '';
    expect(shown).not.toContain('"type":"assistant"');
    expect(shown.length).toBeLessThan(12_000);
    await page.screenshot({ path: join(shots, '30-agent-output-words.png'), fullPage: true });

    await page.getByTestId('log-raw').click();
    await log.locator('xpath=self::*[@data-view="raw"]').waitFor(wait);
    await waitForText(log, '"type":"assistant"');
    expect(((await log.textContent()) ?? '').length).toBeGreaterThan(80_000);
    await page.getByTestId('log-raw').click();
    await kind('result').waitFor(wait);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("reads Codex's exec --json the same way; a task run twice in one session has a tab for each run", async () => {
    const env = {
      BATON_HOME: home,
      BATON_URL: undefined,
      CODEX_HOME: tempDir('codex-home-'),
      FAKE_ROLLOUT: 'none',
      // its first turn fails on a full context: the task goes on in a new driver session, a second log
      FAKE_FAIL: "Codex ran out of room in the model's context window.",
      FAKE_FAIL_ONCE: join(tempDir('baton-once-'), 'failed'),
    };
    const other = makeRepo();
    const created = await runCli(['--json', 'create', '--title', 'Codex output', '--task', 'T1:one'], {
      cwd: other,
      env,
    });
    const id = created.json<{ id: string }>().id;
    const run = await runCli(['run', '--agent', 'codex', '--agent-bin', fakeCodex], { cwd: other, env });
    expect(run.code, run.stderr).toBe(0);

    const { page, errors } = await openWorkflow(id);
    const tabs = page.getByRole('group', { name: 'task logs' }).getByRole('button');
    await waitForText(tabs.nth(1), 'T1 · s1 · 2nd', wait.timeout);
    expect(await tabs.first().textContent()).toBe('T1 · s1');
    const log = page.getByTestId('agent-log');
    const kind = (k: string) => log.locator(`[data-kind="${k}"]`);
    // the newest log, selected: the run that completed
    await waitForText(kind('result'), 'Turn completed (', wait.timeout);
    expect(await kind('tool').first().textContent()).toMatch(/^→ exec sed -n '1,180p' /);
    expect(await kind('raw').count()).toBe(0);
    expect((await log.textContent()) ?? '').not.toContain('"type":"item.completed"');
    // the first: the turn that failed, said as such
    await tabs.first().click();
    await waitForText(
      kind('result-error'),
      "Turn failed: Codex ran out of room in the model's context window.",
    );
    await page.screenshot({ path: join(shots, '31-agent-output-codex.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
