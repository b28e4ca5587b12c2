import Database from 'better-sqlite3';
import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

type Json = Record<string, any>;

/**
 * A repository set up for Claude Code whose conversation `conv-1` asked `question` and got `answer` (its hooks got
 * through); `locked(fn)` runs hooks while another process holds the database; `startup(id)` begins a new conversation.
 */
async function answeredConversation(question: string, answer: string) {
  const { repo, env, baton } = hookWorkspace();
  expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
  const path = join(tempDir('baton-transcript-'), 'conversation.jsonl');
  const hook = agentHooks(baton, { cwd: repo, session_id: 'conv-1', transcript_path: path });
  const line = (type: string, message: Json) =>
    appendFileSync(
      path,
      `${JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: 'conv-1', message })}\n`,
    );
  await hook('SessionStart', { source: 'startup' });
  line('user', { role: 'user', content: question });
  expect((await hook('UserPromptSubmit', { prompt: question })).code).toBe(0);
  line('assistant', { id: 'm1', role: 'assistant', content: [{ type: 'text', text: answer }] });
  const locked = async (fn: () => Promise<void>) => {
    const lock = new Database(join(env.BATON_HOME, 'baton.db'));
    lock.exec('BEGIN EXCLUSIVE');
    try {
      await fn();
    } finally {
      lock.exec('COMMIT');
      lock.close();
    }
  };
  const startup = (id: string) =>
    baton(
      ['hook', 'SessionStart'],
      JSON.stringify({ cwd: repo, session_id: id, hook_event_name: 'SessionStart', source: 'startup' }),
    );
  return { path, hook, line, locked, startup };
}

describe('the end of a conversation whose hooks could not reach the store', () => {
  it('is recorded at the next session start: finished work, not a conversation cut off', async () => {
    const answer = 'add adds its two arguments; nothing else uses it.';
    const { path, hook, locked, startup } = await answeredConversation('what does add do?', answer);
    // another process holds the database while the turn ends and the user quits: both hooks fail; the first says
    // so whole, the second (the same outage) adds nothing
    await locked(async () => {
      const stop = await hook('Stop', { stop_hook_active: false, last_assistant_message: answer });
      expect(stop.stdout).toMatch(/the Stop hook failed: .*database is locked/);
      const quit = await hook('SessionEnd', { reason: 'prompt_input_exit' });
      expect(quit.code).toBe(0);
      expect(quit.stdout).not.toMatch(/hook failed|ran out of time/);
    });

    // the next conversation: the quit the hooks saw is recorded first, so the answered request is finished work
    const next = await startup('conv-2');
    expect(next.stderr).toMatch(
      new RegExp(
        `recorded the SessionEnd of ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\), which its hook could not record then`,
      ),
    );
    expect(next.stderr).not.toMatch(/stopped in the middle/);
    expect(next.stdout).not.toMatch(/stopped in the middle|crash/);
    expect(next.stderr).toMatch(
      /completed workflow \S+ \("what does add do\?"\): the user's last request was answered and Claude Code session conv-1 ended \(the user quit\)/,
    );
    // recorded once: the next start does not record it again
    expect((await startup('conv-3')).stderr).not.toMatch(/which its hook could not record then/);
  }, 60_000);

  it('is not the last word once a later turn began: not recorded over that turn', async () => {
    const { path, hook, line, locked, startup } = await answeredConversation('what does add do?', 'It adds.');
    // the turn ends, and the next prompt comes, while the database is locked: both hooks fail
    await locked(async () => {
      expect(
        (await hook('Stop', { stop_hook_active: false, last_assistant_message: 'It adds.' })).stdout,
      ).toMatch(/the Stop hook failed/);
      line('user', { role: 'user', content: 'now rename it to sum' });
      // the same outage: said at the Stop, not again (and not a hook that ran out of time waiting twice)
      const prompt = await hook('UserPromptSubmit', { prompt: 'now rename it to sum' });
      expect(prompt.code).toBe(0);
      expect(prompt.stdout).not.toMatch(/hook failed|ran out of time/);
    });
    // the agent starts on it and its process dies mid-turn: no Stop, no SessionEnd
    line('assistant', {
      id: 'm2',
      role: 'assistant',
      content: [{ type: 'text', text: 'Renaming add to sum; first I' }],
    });
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, past, past);
    const next = await startup('conv-2');
    // the Stop its hook saw is not recorded now: it would end the later turn, which its last message shows under way
    expect(next.stderr).not.toMatch(/which its hook could not record then/);
    expect(next.stderr).toMatch(/read 4 entries/);
  }, 60_000);
});
