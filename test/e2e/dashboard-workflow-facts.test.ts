import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

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

  const open = async (server: ServerProcess, id: string) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
    await page.goto(`${server.url}/#/workflows/${id}`);
    await page.locator(`[data-workflow="${id}"]`).waitFor(wait);
    return page;
  };

  it('a transcript that grew after its agent stopped sending hooks: the status and the page say it, as the CLI does', async () => {
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
    const banner = page.getByTestId('unread-transcript');
    await waitForText(banner, `Unread transcript: ${transcript} grew by`);
    await waitForText(banner, `baton import -w ${id} ${transcript}`);
    await waitForText(banner, 'no agent seen at work on it');
    await page.screenshot({ path: join(shots, '20-unread-transcript.png'), fullPage: true });
    await page.close();
  });
});
