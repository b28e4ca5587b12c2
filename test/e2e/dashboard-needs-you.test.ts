import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { agentHooks } from '../helpers/hook-workspace.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { standInAgent } from '../helpers/stand-in-agent.js';

// The Workflows page at a glance: which workflow waits for its user, and for what, in the words `baton status` says it
// in each worktree; those first.

type Json = Record<string, any>;
const wait = { timeout: 20_000 };

describe.runIf(process.platform === 'linux')(
  'dashboard: the Workflows page says which workflow needs you',
  () => {
    const shots = artifactsDir('dashboard');
    let browser: Browser;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      assertDashboardBuilt();
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('each row says what needs its user (a usage limit, an open error, an agent cut off, a pause waiting), those rows first', async () => {
      const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
      /** A Claude Code conversation the hooks follow, in a repository of its own, that asked `prompt`. */
      const conversation = async (prompt: string, sid: string) => {
        const repo = makeRepo();
        const transcript = join(tempDir('baton-transcript-'), `${sid}.jsonl`);
        writeFileSync(
          transcript,
          `${JSON.stringify({ type: 'user', sessionId: sid, timestamp: new Date().toISOString(), message: { role: 'user', content: prompt } })}\n`,
        );
        const baton = (args: string[], input?: string) =>
          runCli(args, { cwd: repo, env, ...(input !== undefined ? { input } : {}) });
        const fixed = { cwd: repo, session_id: sid, transcript_path: transcript };
        const hook = agentHooks(baton, fixed);
        return { repo, baton, hook, fixed };
      };
      const asked = async (prompt: string, sid: string) => {
        const c = await conversation(prompt, sid);
        await c.hook('SessionStart', { source: 'startup' });
        await c.hook('UserPromptSubmit', { prompt });
        return c;
      };

      const limit = await asked('fix the login bug (limit)', 'need-0001');
      const notice = "You've hit your session limit · resets 11:00pm (UTC)";
      expect(
        (await limit.hook('StopFailure', { error: 'rate_limit', last_assistant_message: notice })).code,
      ).toBe(0);
      const failing = await asked('fix the login bug (failing)', 'need-0002');
      await failing.hook('Stop', { stop_hook_active: false });
      const recorded = await failing.baton([
        'record',
        'error',
        '--type',
        'test_failure',
        '--message',
        'FAIL src/login.test.ts > login > rejects a bad password',
      ]);
      expect(recorded.code, recorded.stderr).toBe(0);
      // the agent's process runs the hooks, then is killed before its turn ends
      const killed = await conversation('fix the login bug (killed)', 'need-0003');
      const agent = standInAgent(killed.repo, env);
      process.kill((await agent('SessionStart', { ...killed.fixed, source: 'startup' })).pid, 'SIGKILL');
      const turn = await agent('UserPromptSubmit', { ...killed.fixed, prompt: 'fix the login bug (killed)' });
      process.kill(turn.pid, 'SIGKILL');
      const pausing = await asked('fix the login bug (pausing)', 'need-0004');
      expect((await pausing.baton(['pause', '--reason', 'lunch'])).code).toBe(0);
      // the newest: the first row, were the rows not sorted
      const fine = await asked('fix the login bug (fine)', 'need-0005');
      await fine.hook('Stop', { stop_hook_active: false });
      await new Promise((r) => setTimeout(r, 100));

      const statusOf = async (c: { baton: typeof limit.baton }) => (await c.baton(['status'])).stdout;
      const said = {
        limit: await statusOf(limit),
        failing: await statusOf(failing),
        killed: await statusOf(killed),
        pausing: await statusOf(pausing),
        fine: await statusOf(fine),
      };
      const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start)) ?? '';

      server = await startServerProcess(env.BATON_HOME, { cwd: fine.repo, env: { HOME: env.HOME } });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
      await page.goto(`${server.url}/#/`);
      const list = page.getByTestId('workflow-list');
      const row = (what: string) => list.locator('tr', { hasText: `fix the login bug (${what})` });
      await row('fine').waitFor(wait);
      const words = async (what: string) =>
        (await row(what).getByTestId('needs-you').locator('li').allTextContents()).map((w) => w.trim());

      // the words are `baton status`'s own: its line, or the part of it before what the CLI adds
      await waitForText(row('limit').getByTestId('needs-you'), 'resets at');
      expect(await words('limit')).toEqual([line(said.limit, 'agent: stopped by a usage limit')]);
      expect(line(said.limit, 'agent:')).toMatch(
        /^agent: stopped by a usage limit of Claude Code, session 1, resets at /,
      );
      const [errors] = await words('failing');
      expect(errors).toMatch(
        /^open errors: 1 \(newest: err-\w+: test_failure: FAIL src\/login\.test\.ts > login/,
      );
      expect(line(said.failing, 'open errors:').startsWith(`${errors!}; \`baton details errors\``)).toBe(
        true,
      );
      const [gone] = await words('killed');
      expect(gone).toBe(
        `agent: Claude Code, session 1 (process ${turn.pid}) no longer runs, cut off in the middle of its turn by a crash or a kill (no Stop came after the last prompt)`,
      );
      expect(line(said.killed, 'agent:').startsWith(`${gone!}: the next Claude Code session here`)).toBe(
        true,
      );
      expect(await words('pausing')).toEqual(["pause requested, when the agent's turn ends"]);
      expect(line(said.pausing, 'status:')).toBe(
        "status: in_progress (pause requested, when the agent's turn ends)",
      );
      // the one that needs nothing says nothing, and comes after those that do
      expect(await row('fine').getByTestId('needs-you').count()).toBe(0);
      expect(said.fine).not.toMatch(/^(agent|open errors):/m);
      const titles = await list.locator('tbody tr a.strong').allTextContents();
      expect(titles.at(-1)).toBe('fix the login bug (fine)');
      expect(titles.slice(0, 4).sort()).toEqual(
        ['failing', 'killed', 'limit', 'pausing'].map((w) => `fix the login bug (${w})`),
      );
      // the resumable sessions say the same on their rows, in the same order
      const resumable = page.getByTestId('resumable-sessions');
      await waitForText(
        resumable.locator('tr', { hasText: '(limit)' }).getByTestId('needs-you'),
        'resets at',
      );
      const topics = await resumable.locator('tbody td[data-label="Topic"]').allTextContents();
      expect(topics.at(-1)).toBe('fix the login bug (fine)');
      await page.screenshot({ path: join(shots, '23-needs-you.png'), fullPage: true });
      // the API gives it to any other client, finished workflows included (none needs anything)
      const table = (await (await server.api('/api/sessions')).json()) as { sessions: Json[] };
      expect(table.sessions.find((s) => s.topic === 'fix the login bug (fine)')?.needs_you).toEqual([]);
      expect(table.sessions.find((s) => s.topic === 'fix the login bug (pausing)')?.needs_you).toEqual([
        "pause requested, when the agent's turn ends",
      ]);
      // at a phone's width the long words wrap: nothing scrolls sideways
      await page.setViewportSize({ width: 390, height: 844 });
      const width = await page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
            .documentElement.scrollWidth,
      );
      expect(width).toBeLessThanOrEqual(390);
      await page.close();
    });
  },
);
