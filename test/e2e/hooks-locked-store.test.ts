import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { codexConversation } from '../helpers/codex-conversation.js';
import { holdWriteLock, releaseLocks } from '../helpers/sqlite-lock.js';

// Another process holds the SQLite database's write lock (a `sqlite3` shell with a transaction open): each hook waits
// for it only as long as its budget allows, counted from the hook process's start, then answers with the failure (the
// store out of reach: nothing is lost, read once it answers); a write's own wait (10 s) is no longer what it waits.

afterEach(releaseLocks);

type Json = Record<string, any>;

/** A Claude Code conversation `conv-1` set up and answered once, its transcript at `path`. */
async function conversation() {
  const ws = hookWorkspace();
  expect((await ws.baton(['init', '--agent', 'all'])).code).toBe(0);
  const path = join(tempDir('baton-transcript-'), 'conversation.jsonl');
  const hook = agentHooks(ws.baton, { cwd: ws.repo, session_id: 'conv-1', transcript_path: path });
  const line = (type: string, message: Json) =>
    appendFileSync(
      path,
      `${JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: 'conv-1', message })}\n`,
    );
  await hook('SessionStart', { source: 'startup' });
  line('user', { role: 'user', content: 'what does add do?' });
  expect((await hook('UserPromptSubmit', { prompt: 'what does add do?' })).code).toBe(0);
  line('assistant', { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'It adds.' }] });
  expect((await hook('Stop', { stop_hook_active: false, last_assistant_message: 'It adds.' })).code).toBe(0);
  return { ...ws, hook, line, path, db: join(ws.env.BATON_HOME, 'baton.db') };
}

/** A hook run, and how long it took from its spawn to its end. */
async function timed<T>(run: () => Promise<T>): Promise<T & { took: number }> {
  const started = Date.now();
  const r = await run();
  return { ...r, took: Date.now() - started };
}

describe('hooks while another process holds the write lock', () => {
  it('answer within their budget, with the failure and what to do; the work is read once the lock is gone', async () => {
    const { hook, line, path, db, baton, repo } = await conversation();
    await holdWriteLock(db);

    // a budget set short (the one a loaded test machine allows): the hook answers by it, not after the 10 s wait
    line('user', { role: 'user', content: 'now rename it to sum' });
    const prompt = await timed(() =>
      baton(
        ['hook', 'UserPromptSubmit'],
        JSON.stringify({
          cwd: repo,
          session_id: 'conv-1',
          transcript_path: path,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'now rename it to sum',
        }),
        { BATON_HOOK_BUDGET: '3s' },
      ),
    );
    expect(prompt.code).toBe(0);
    expect(prompt.took, prompt.stderr).toBeLessThan(4500);
    const said = JSON.parse(prompt.stdout) as Json;
    expect(said.systemMessage).toMatch(
      /the UserPromptSubmit hook failed: cannot write to the SQLite database .*: database is locked: another process kept it locked/,
    );
    expect(said.systemMessage).toContain('nothing is lost');

    // the lock gone, the next hook reaches the store and reads what the conversation wrote meanwhile
    releaseLocks();
    line('assistant', { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'Renamed it.' }] });
    const stop = await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Renamed it.' });
    expect(stop.code).toBe(0);
    expect((JSON.parse(stop.stdout) as Json).systemMessage).toMatch(/Baton reaches its store again/);
    expect((await baton(['context'])).stdout).toContain('now rename it to sum');
  }, 90_000);

  it("answer Codex's Interrupt within the 2 s it keeps of Codex's 3 s (Codex kills it at 3 s)", async () => {
    const { repo, baton, env } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const codex = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000c1');
    codex.start();
    expect((await codex.hook('SessionStart', { source: 'startup' })).code).toBe(0);
    codex.turnStarts();
    expect((await codex.ask('what does add do?')).code).toBe(0);
    expect((await codex.stop('It adds.')).code).toBe(0);

    await holdWriteLock(join(env.BATON_HOME, 'baton.db'));
    codex.turnStarts();
    // its prompt, within the 8 s it keeps of its 13 s timeout
    const asked = await timed(() => codex.ask('now rename it to sum'));
    expect(asked.code).toBe(0);
    // its 8 s and the time to answer, with room for a loaded machine: the 10 s wait it replaced took 10.4 s
    expect(asked.took, asked.stderr).toBeLessThan(9900);
    expect(asked.stderr).toMatch(
      /UserPromptSubmit: cannot write to the SQLite database .*: database is locked/,
    );
    codex.write(
      codex.line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Renaming' }],
      }),
    );
    const interrupt = await timed(() => codex.hook('Interrupt'));
    expect(interrupt.code).toBe(0);
    // its 2 s and the time to answer, with room for a loaded machine: the 10 s wait it replaced took 10.9 s
    expect(interrupt.took, interrupt.stderr).toBeLessThan(4500);
    // the store still out of reach: the outage goes on (the import failed), not said over
    expect(interrupt.stderr).toMatch(/Interrupt: cannot write to the SQLite database .*: database is locked/);
    expect(interrupt.stderr).not.toMatch(/the store answers again/);

    releaseLocks();
    codex.turnStarts();
    const next = await codex.ask('go on');
    expect((JSON.parse(next.stdout) as Json).systemMessage).toMatch(/Baton reaches its store again/);
    expect((await baton(['context'])).stdout).toContain('now rename it to sum');
  }, 90_000);
});
