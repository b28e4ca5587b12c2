import { appendFileSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, agentHooks } from '../helpers/hook-workspace.js';
import { mcpClient } from '../helpers/mcp-client.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { artifactsDir, waitForText } from '../helpers/browser.js';
import { onWorkflowPage } from '../helpers/workflow-page.js';
import { hookLogPath, readHookLog, writeHookLog } from '../../src/integrations/hooks/hook-log.js';

// An agent killed in the middle of its turn sends no Stop, whose hook would have imported the turn: its transcript
// holds work Baton has not read until the next session start. Meanwhile `baton status` says so, and `baton context`
// reads it before it hands the work over.

type Json = Record<string, any>;

const SESSION = '196820da-0000-4000-8000-000000000001';
const lines = readFileSync(corpusPath('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean);
/** The first turn ends on line 113 (the agent's summary); the user's next request is line 115. */
const FIRST_TURN = 114;

function workspace() {
  const { repo, baton, env } = hookWorkspace();
  const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
  const hook = agentHooks(baton, { cwd: repo, session_id: SESSION, transcript_path: transcript });
  /** The session's first turn, through hooks: its start, the user's request, the agent's work, its Stop. */
  const firstTurn = async () => {
    writeFileSync(transcript, '');
    await hook('SessionStart', { source: 'startup' });
    appendFileSync(transcript, `${lines.slice(0, 6).join('\n')}\n`);
    await hook('UserPromptSubmit', { prompt: promptOf(5) });
    appendFileSync(transcript, `${lines.slice(6, FIRST_TURN).join('\n')}\n`);
    return hook('Stop', { stop_hook_active: false });
  };
  /** The first turn, then the next: the user asks, the agent works, and is killed before its Stop; minutes pass. */
  const killedTurn = async () => {
    expect((await firstTurn()).code).toBe(0);
    await hook('UserPromptSubmit', { prompt: promptOf(115) });
    appendFileSync(transcript, `${lines.slice(FIRST_TURN).join('\n')}\n`);
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
    utimesSync(transcript, past, past);
    const status = (await baton(['status', '--json'])).json<Json>();
    expect(status.unread_transcripts).toHaveLength(1);
    return status.workflow.id as string;
  };
  return { baton, transcript, hook, firstTurn, killedTurn, repo, env, home: env.BATON_HOME };
}

const promptOf = (n: number) => (JSON.parse(lines[n]!) as { message: { content: string } }).message.content;

describe('a transcript that grew after its agent stopped sending hooks', () => {
  it('baton status says how much and what reads it; baton context reads it first and hands over the later work', async () => {
    const { baton, transcript, hook, firstTurn } = workspace();
    expect((await firstTurn()).code).toBe(0);
    const read = readFileSync(transcript).length;
    const first = (await baton(['status', '--json'])).json<Json>();
    expect(first.unread_transcripts).toEqual([]);

    // the next turn: the user asks, the agent works (its transcript grows), then it is killed before its Stop
    await hook('UserPromptSubmit', { prompt: promptOf(115) });
    appendFileSync(transcript, `${lines.slice(FIRST_TURN).join('\n')}\n`);
    const size = readFileSync(transcript).length;
    // written moments ago: an agent at work, whose next Stop reads it; nothing to say yet
    expect((await baton(['status'])).stdout).not.toMatch(/^unread:/m);

    // whole seconds: the file system keeps what the clock gives it, to the nanosecond
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
    utimesSync(transcript, past, past);
    const status = await baton(['status']);
    const id = (await baton(['status', '--json'])).json<Json>().workflow.id as string;
    expect(status.stdout).toMatch(
      new RegExp(
        `^unread: ${transcript} grew by \\d+\\.\\d KB since Baton last read it \\(written 5m0\\ds ago, no agent seen at work on it\\): \`baton import -w ${id} ${transcript}\` reads it, as \`baton context\` and the next session start do$`,
        'm',
      ),
    );
    const json = (await baton(['status', '--json'])).json<Json>();
    expect(json.unread_transcripts).toEqual([
      {
        path: transcript,
        agent: 'claude-code',
        workflow_id: id,
        read_through: read,
        size,
        grown_bytes: size - read,
        written_at: past.toISOString(),
        why: 'no agent seen at work on it',
        command: `baton import -w ${id} ${transcript}`,
      },
    ]);

    // the briefing handed over holds the work the killed turn did: its last request and the agent's last words
    const context = await baton(['context']);
    expect(context.code).toBe(0);
    expect(context.stderr).toMatch(
      new RegExp(`^note: read \\d+ entries that ${transcript} gained since Baton last read it$`, 'm'),
    );
    expect(context.stdout).toContain('create document in /specs folder');
    expect(context.stdout).toContain("I've created a comprehensive specification document");
    // read now: neither says it again
    expect((await baton(['status'])).stdout).not.toMatch(/^unread:/m);
    const again = await baton(['--json', 'context']);
    expect(again.json<Json>().transcripts_read).toEqual([]);
  });

  it('a tail with nothing to record, read by the command status names, is not said unread again', async () => {
    const { baton, transcript, firstTurn, repo, home } = workspace();
    expect((await firstTurn()).code).toBe(0);
    // the Stop was ten minutes ago
    const logPath = hookLogPath(home, repo);
    const log = readHookLog(logPath, repo);
    log.transcripts[transcript]!.at = new Date(Date.now() - 10 * 60_000).toISOString();
    writeHookLog(logPath, log);
    // minutes after it Claude Code adds its own bookkeeping (a file-history snapshot): no entry of the conversation
    appendFileSync(
      transcript,
      `${JSON.stringify({ type: 'file-history-snapshot', messageId: 'm-later', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false })}\n`,
    );
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
    utimesSync(transcript, past, past);
    const said = (await baton(['status', '--json'])).json<Json>().unread_transcripts as Json[];
    expect(said).toHaveLength(1);
    const imported = await baton([...(said[0]!.command as string).split(' ').slice(1), '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json<Json>().new_entries).toBe(0);
    expect((await baton(['status', '--json'])).json<Json>().unread_transcripts).toEqual([]);
    expect((await baton(['status'])).stdout).not.toMatch(/^unread:/m);
  });

  // the dashboard's panel and an agent's get_resume_context hand the context over as `baton context` does
  const servers: ServerProcess[] = [];
  afterAll(() => Promise.all(servers.map((x) => x.stop())));

  it("the server's context (the dashboard's panel) reads it first, and says what it read", async () => {
    const { baton, transcript, killedTurn, repo, env } = workspace();
    const id = await killedTurn();
    const server = await startServerProcess(env.BATON_HOME, { cwd: repo, env: { HOME: env.HOME } });
    servers.push(server);
    const res = await server.api(`/api/workflows/${id}/context`);
    expect(res.status, server.report()).toBe(200);
    const context = (await res.json()) as Json;
    expect(context.transcripts_read).toEqual([
      expect.stringMatching(
        new RegExp(`^read \\d+ entries that ${transcript} gained since Baton last read it$`),
      ),
    ]);
    expect(context.markdown).toContain('create document in /specs folder');
    expect(context.markdown).toContain("I've created a comprehensive specification document");
    // read: neither the server nor the CLI says it unread any more
    const status = (await (await server.api(`/api/workflows/${id}/status`)).json()) as Json;
    expect(status.unread_transcripts).toEqual([]);
    expect((await baton(['status'])).stdout).not.toMatch(/^unread:/m);
    const again = (await (await server.api(`/api/workflows/${id}/context`)).json()) as Json;
    expect(again.transcripts_read).toEqual([]);
  });

  it("the MCP server's get_resume_context reads it first", async () => {
    const { baton, killedTurn, repo, env } = workspace();
    await killedTurn();
    const client = await mcpClient(repo, env);
    try {
      const r = (await client.callTool({ name: 'get_resume_context', arguments: {} })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(r.content[0]!.text).toContain('create document in /specs folder');
      expect(r.content[0]!.text).toContain("I've created a comprehensive specification document");
    } finally {
      await client.close();
    }
    expect((await baton(['status', '--json'])).json<Json>().unread_transcripts).toEqual([]);
  });

  it('what cannot be read first, get_resume_context says after the briefing and in a field, as `baton context` does', async () => {
    const { baton, firstTurn, repo, env, home } = workspace();
    expect((await firstTurn()).code).toBe(0);
    const id = (await baton(['status', '--json'])).json<Json>().workflow.id as string;
    // a file the hooks took for this workflow's transcript that is none (notes, say), grown with no agent at work
    const notes = join(tempDir('baton-transcript-'), 'notes.jsonl');
    writeFileSync(notes, 'first I looked at the parser\nthen I fixed the lexer\n');
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
    utimesSync(notes, past, past);
    const logPath = hookLogPath(home, repo);
    const log = readHookLog(logPath, repo);
    log.transcripts[notes] = { bytes: 0, workflow_id: id, at: past.toISOString(), source: 'claude-code' };
    writeHookLog(logPath, log);
    const why = `${notes} is not a Claude Code transcript`;
    const command = `baton import -w ${id} ${notes}`;

    const client = await mcpClient(repo, env);
    try {
      const r = (await client.callTool({ name: 'get_resume_context', arguments: {} })) as {
        content: { text: string }[];
        structuredContent?: Json;
        isError?: boolean;
      };
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(r.content[0]!.text).toMatch(/^<!-- baton resume context: workflow /);
      expect(r.content).toHaveLength(2);
      expect(r.content[1]!.text).toMatch(
        new RegExp(
          `^Warning: Baton could not read what ${notes} gained since it last read it \\(.*${why}.*\\), so the briefing above lacks that work`,
        ),
      );
      expect(r.content[1]!.text).toContain(
        `Run \`${command}\` once that is fixed, then call get_resume_context again`,
      );
      expect(r.structuredContent?.transcripts_not_read).toEqual([
        { path: notes, why: expect.stringContaining(why), command },
      ]);
      expect(r.structuredContent?.hash).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
    // the CLI says the same failure on stderr
    expect((await baton(['context'])).stderr).toMatch(
      new RegExp(`^note: could not read ${notes}: .*${why}`, 'm'),
    );
  });
});

describe('a transcript gone (deleted or moved) before Baton read it', () => {
  it('baton status, baton context and get_resume_context say what the briefing lacks, not nothing', async () => {
    const { baton, transcript, killedTurn, repo, env } = workspace();
    const id = await killedTurn();
    rmSync(transcript);
    const why = `it is gone (deleted or moved); what it held after line ${FIRST_TURN} is not in the briefing`;
    const command = `baton import -w ${id} <where it is now>`;

    const status = await baton(['status']);
    expect(status.stdout).toContain(`not read: ${transcript}: ${why} (moved: \`${command}\` reads it)`);
    const json = (await baton(['status', '--json'])).json<Json>();
    expect(json.unread_transcripts).toEqual([]);
    expect(json.transcripts_not_read).toEqual([{ path: transcript, why, command }]);

    const context = await baton(['context']);
    expect(context.code).toBe(0);
    expect(context.stderr).toContain(`note: could not read ${transcript}: ${why}`);

    const client = await mcpClient(repo, env);
    try {
      const r = (await client.callTool({ name: 'get_resume_context', arguments: {} })) as {
        content: { text: string }[];
        structuredContent?: Json;
        isError?: boolean;
      };
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(r.content[1]!.text).toContain(`Warning: Baton could not read what ${transcript} gained`);
      expect(r.content[1]!.text).toContain(why);
      expect(r.structuredContent?.transcripts_not_read).toEqual([{ path: transcript, why, command }]);
    } finally {
      await client.close();
    }
  });

  it.runIf(process.platform === 'linux')(
    "the workflow's dashboard page says it on a banner, with the command that reads it once found",
    async () => {
      const { transcript, killedTurn, repo, env } = workspace();
      const id = await killedTurn();
      rmSync(transcript);
      await onWorkflowPage(env, repo, id, async (page) => {
        const banner = page.getByTestId('transcript-not-read');
        await waitForText(banner, 'is not in the briefing');
        expect((await banner.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
          `Transcript not read: ${transcript}: it is gone (deleted or moved); what it held after line ${FIRST_TURN} is not in the briefing, nor in the resume context below. If it was moved, baton import -w ${id} <where it is now> reads it from where it is now.`,
        );
        await page.screenshot({
          path: join(artifactsDir('dashboard'), '24-transcript-not-read.png'),
          fullPage: true,
        });
      });
    },
    90_000,
  );

  it('one whose turn ended (its Stop read it), or that was moved and read from where it is now, is not said', async () => {
    const ended = workspace();
    expect((await ended.firstTurn()).code).toBe(0);
    rmSync(ended.transcript);
    const after = (await ended.baton(['status', '--json'])).json<Json>();
    expect(after.transcripts_not_read).toEqual([]);
    expect((await ended.baton(['status'])).stdout).not.toMatch(/^not read:/m);

    const moved = workspace();
    const id = await moved.killedTurn();
    const now = join(tempDir('baton-moved-'), basename(moved.transcript));
    renameSync(moved.transcript, now);
    expect((await moved.baton(['status', '--json'])).json<Json>().transcripts_not_read).toHaveLength(1);
    expect((await moved.baton(['import', '-w', id, now])).code).toBe(0);
    expect((await moved.baton(['status', '--json'])).json<Json>().transcripts_not_read).toEqual([]);
  });
});
