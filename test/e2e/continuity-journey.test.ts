import { appendFileSync, statSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, agentHooks } from '../helpers/hook-workspace.js';

// Issue 11's contract, from outside: `baton init` in a fresh git repository, then only the agent's hooks (no `baton
// create`, no other command) on real transcripts, and `baton status --json` shows what they recorded.

type Json = Record<string, any>;

function workspace() {
  const { repo, baton } = hookWorkspace();
  const status = async () => (await baton(['status', '--json'])).json<Json>();
  return { repo, baton, status };
}

/** The first `n` lines of a corpus file, written to a transcript of its own (as the agent had written it so far). */
function transcriptOf(rel: string, n: number): { path: string; lines: Json[] } {
  const all = readFileSync(corpusPath(rel), 'utf8').split('\n').filter(Boolean);
  const path = join(tempDir('baton-transcript-'), 'session.jsonl');
  writeFileSync(path, `${all.slice(0, n).join('\n')}\n`);
  return { path, lines: all.map((l) => JSON.parse(l) as Json) };
}

const injected = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
    .hookSpecificOutput;

const taskRows = (s: Json) => (s.tasks as Json[]).map((t) => [t.title, t.status]);

describe('continuity by default: baton init, then Claude Code as usual', () => {
  it('follows the session, takes the request and the TodoWrite list, and injects them after /clear', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo });

    const sid = '196820da-0000-4000-8000-000000000001';
    const start = await hook('SessionStart', { session_id: sid, source: 'startup' });
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(/following this session as workflow wf-/);
    const s0 = await status();
    expect(s0.workflow.status).not.toBe('completed');

    // The user's request, as Claude Code sends it, and the transcript as it stood at the fifth TodoWrite call.
    const { path, lines } = transcriptOf('claude-code/codemie-code-2/session-196820da.jsonl', 60);
    const prompt = lines[5]!.message.content as string | Json[] as string;
    expect(typeof prompt).toBe('string');
    const ask = await hook('UserPromptSubmit', { session_id: sid, transcript_path: path, prompt });
    expect(ask).toMatchObject({ code: 0 });
    const stop = await hook('Stop', { session_id: sid, transcript_path: path, stop_hook_active: false });
    expect(stop.code).toBe(0);
    expect(stop.stderr).toMatch(/imported/);

    const s1 = await status();
    expect(s1.workflow.issue.title.length).toBeGreaterThan(0);
    // the prompt's first line, without its opening "ultrathink" (a thinking keyword, nothing of the work)
    expect(prompt).toMatch(/^ultrathink /);
    expect(
      prompt.slice('ultrathink '.length).startsWith(s1.workflow.issue.title.replace(/…$/, '').slice(0, 40)),
    ).toBe(true);
    expect(taskRows(s1)).toEqual([
      ['Review current session tracking implementation', 'done'],
      ['Search ~/.claude folders for /clear command patterns', 'done'],
      ['Analyze session file timestamps to understand boundaries', 'in_progress'],
      ['Design approach for session lifecycle tracking', 'pending'],
      ['Create implementation plan with correlation strategy', 'pending'],
    ]);

    // /clear: a new Claude Code session in the same worktree is the next Baton session, and gets the context.
    const clear = await hook('SessionStart', {
      session_id: '196820da-0000-4000-8000-000000000002',
      transcript_path: path,
      source: 'clear',
    });
    expect(clear.code).toBe(0);
    const out = injected(clear.stdout);
    expect(out.hookEventName).toBe('SessionStart');
    const text = out.additionalContext;
    expect(text.length).toBeLessThanOrEqual(9000);
    expect(text).toContain(prompt.slice(0, 60));
    expect(text).toContain('Analyze session file timestamps to understand boundaries');
    expect(text).toContain('Create implementation plan with correlation strategy');
    expect(text).toMatch(/baton context/);
    expect(text).toMatch(/baton details/);

    const s2 = await status();
    expect(s2.workflow.id).toBe(s0.workflow.id);
    expect(s2.workflow.session_count).toBe(2);
    expect(taskRows(s2)).toEqual(taskRows(s1));

    // The same agent session again (a resume of that session) stays in the same Baton session.
    await hook('UserPromptSubmit', {
      session_id: '196820da-0000-4000-8000-000000000002',
      prompt: 'go on with the plan',
    });
    expect((await status()).workflow.session_count).toBe(2);

    // The agent works on: the next Stop reads only the lines added since the last import (from its byte offset).
    const all = readFileSync(corpusPath('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8').split(
      '\n',
    );
    appendFileSync(path, `${all.slice(60, 111).join('\n')}\n`);
    const more = await hook('Stop', { session_id: sid, transcript_path: path, stop_hook_active: false });
    expect(more.stderr).toMatch(/imported \d+ new transcript entries/);
    const s3 = await status();
    expect(taskRows(s3).map(([, st]) => st)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(Object.values(s3.imports as Record<string, { through_line: number }>)).toEqual([
      expect.objectContaining({ through_line: 111, through_byte: statSync(path).size }),
    ]);
  });
});

describe("continuity by default: the next session's own task list", () => {
  it('is asked to keep the tasks left in their words, and told which open tasks its first list leaves out', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const path = join(tempDir('baton-transcript-'), 'session.jsonl');
    const hook = agentHooks(baton, { cwd: repo, transcript_path: path });
    const todos = (items: [string, string][]) => ({
      todos: items.map(([content, state]) => ({ content, status: state, activeForm: content })),
    });
    const first = '196820da-0000-4000-8000-0000000000d1';
    await hook('SessionStart', { session_id: first, source: 'startup' });
    const prompt = 'add a calculator module with tests';
    // the lines as Claude Code writes them (its session, time and folder on each)
    const line = (type: string, message: Json) =>
      JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: first, cwd: repo, message });
    appendFileSync(path, `${line('user', { role: 'user', content: prompt })}\n`);
    await hook('UserPromptSubmit', { session_id: first, prompt });
    const plan = todos([
      ['Write add and subtract in calc.py', 'completed'],
      ['Add pytest tests for all four', 'in_progress'],
      ['Run tests and commit', 'pending'],
    ]);
    appendFileSync(
      path,
      `${[
        line('assistant', {
          id: 'm-d1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_d1', name: 'TodoWrite', input: plan }],
        }),
        line('user', {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_d1', content: 'ok' }],
        }),
      ].join('\n')}\n`,
    );
    expect((await hook('Stop', { session_id: first, stop_hook_active: false })).code).toBe(0);
    expect(taskRows(await status())).toEqual([
      ['Write add and subtract in calc.py', 'done'],
      ['Add pytest tests for all four', 'in_progress'],
      ['Run tests and commit', 'pending'],
    ]);

    // /clear: the briefing asks the agent to keep the tasks left in its own (empty) list in these words
    const second = '196820da-0000-4000-8000-0000000000d2';
    const clear = injected((await hook('SessionStart', { session_id: second, source: 'clear' })).stdout);
    expect(clear.additionalContext).toContain(
      '  [ ] T3 Run tests and commit\n  (Keep the tasks left in your own task list in these words: Baton follows each there by its words; one in other words is another task, and this one stays open.)',
    );

    // its first list words them its own way: told which open tasks no item holds, while it can still take them up
    const reworded = await hook('PostToolUse', {
      session_id: second,
      tool_name: 'TodoWrite',
      tool_use_id: 'toolu_d2',
      tool_input: todos([
        ['Finish test_calc.py tests for all four operations', 'in_progress'],
        ['Run the pytest suite and commit', 'pending'],
      ]),
      tool_response: {},
    });
    expect(reworded.code).toBe(0);
    const told = injected(reworded.stdout);
    expect(told.hookEventName).toBe('PostToolUse');
    expect(told.additionalContext).toBe(
      'Baton: this workflow has open tasks your task list does not hold (an earlier session\'s, or added outside your list): T2 "Add pytest tests for all four" (in progress), T3 "Run tests and commit". Baton ties your list\'s items to its tasks by their words: put each of these in your list in these words, then mark it completed when it is done (at once if it is done already), or remove it if it is no longer wanted (Baton then skips it). Left out, they are handed on as left from an earlier plan once your list is done.',
    );
    expect(reworded.stderr).toMatch(/told the agent of 2 open task\(s\) its list leaves out: T2, T3/);

    // it does: the tasks follow its list, and nothing more is said
    const kept = await hook('PostToolUse', {
      session_id: second,
      tool_name: 'TodoWrite',
      tool_use_id: 'toolu_d3',
      tool_input: todos([
        ['Add pytest tests for all four', 'completed'],
        ['Run tests and commit', 'in_progress'],
      ]),
      tool_response: {},
    });
    expect(kept.stdout.trim()).toBe('');
    const rows = taskRows(await status());
    expect(rows.slice(0, 3)).toEqual([
      ['Write add and subtract in calc.py', 'done'],
      ['Add pytest tests for all four', 'done'],
      ['Run tests and commit', 'in_progress'],
    ]);
  });
});

describe('continuity by default: a pause asked for, then a crash before the turn ended', () => {
  it('is withdrawn when the next session starts (the user is at work again), and the user is told', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const path = join(tempDir('baton-transcript-'), 'session.jsonl');
    const hook = agentHooks(baton, { cwd: repo, transcript_path: path });
    const first = '196820da-0000-4000-8000-0000000000e1';
    const line = (type: string, message: Json) =>
      JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: first, cwd: repo, message });
    const write = (...lines: string[]) => appendFileSync(path, `${lines.join('\n')}\n`);
    await hook('SessionStart', { session_id: first, source: 'startup' });
    write(line('user', { role: 'user', content: 'add a calculator module with tests' }));
    await hook('UserPromptSubmit', { session_id: first, prompt: 'add a calculator module with tests' });
    const todos = {
      todos: [
        { content: 'Write calc.py', status: 'in_progress', activeForm: 'Writing calc.py' },
        { content: 'Write its tests', status: 'pending', activeForm: 'Writing its tests' },
      ],
    };
    write(
      line('assistant', {
        id: 'm-e1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_e1', name: 'TodoWrite', input: todos }],
      }),
      line('user', {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_e1', content: 'ok' }],
      }),
      line('assistant', {
        id: 'm-e2',
        role: 'assistant',
        content: [{ type: 'text', text: 'Writing calc.py now.' }],
      }),
    );
    // the turn under way, a task in progress: the pause waits for the task's end (or the turn's); then the laptop closes
    const paused = await baton(['pause', '--reason', 'laptop closing']);
    expect(paused.code).toBe(0);
    expect((await status()).workflow.pause_requested).toBe(true);
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, past, past);

    const next = await hook('SessionStart', {
      session_id: '196820da-0000-4000-8000-0000000000e2',
      source: 'startup',
    });
    expect(next.code).toBe(0);
    const told = (JSON.parse(next.stdout) as { systemMessage: string }).systemMessage;
    expect(told).toMatch(
      /Baton noticed that session 1 \(Claude Code session \S+\) stopped in the middle of its turn/,
    );
    expect(told).toContain(
      'Baton withdrew the pause you asked for (laptop closing): the turn it waited for was cut off, and this session goes on with the work (`baton pause` asks again)',
    );
    const after = await status();
    expect(after.workflow.pause_requested).toBe(false);
    expect(after.workflow.status).toBe('in_progress');
    expect(next.stderr).not.toMatch(/paused/);
  });
});

describe('continuity by default: baton init --agent codex, then Codex as usual', () => {
  it('follows the session, takes the request and the update_plan list from the rollout, and injects them at the next start', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const rel = 'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    const { path } = transcriptOf(rel, 250);
    const codex = (event: string, fields: Json) =>
      baton(
        ['hook', event, '--agent', 'codex'],
        JSON.stringify({
          session_id: '019e1625-789d-76c0-80ab-3724b5ddb799',
          turn_id: 'turn-1',
          cwd: repo,
          hook_event_name: event,
          model: 'gpt-5.5',
          transcript_path: path,
          ...fields,
        }),
      );
    const first = await codex('SessionStart', { source: 'startup' });
    expect(first.stderr).toMatch(/following this session/);
    // Codex's sandbox cannot write Baton's database: the agent is pointed at the MCP tool, not the CLI
    expect(injected(first.stdout).additionalContext).toMatch(/with the MCP tool add_task\.\n$/);
    const prompt = "let's update the defailt context compart to 90 in env var";
    expect((await codex('UserPromptSubmit', { prompt })).code).toBe(0);
    const stop = await codex('Stop', { stop_hook_active: false, last_assistant_message: null });
    expect(stop.code).toBe(0);

    const s1 = await status();
    // the hooks came in at the second turn: the rollout's import at Stop reads the first ("show tools"), said
    // before; a look at the agent's tools asks for no work, so the prompt the hook saw stays the issue
    expect(s1.workflow.issue.title).toBe(prompt);
    expect(s1.workflow.title).toBe(prompt);
    expect(taskRows(s1)).toEqual([
      ['Add failing tests for default compaction threshold in generated OpenCode env config', 'in_progress'],
      ['Set default compaction threshold to 90% in generated OPENCODE_CONFIG_CONTENT paths', 'pending'],
      ['Run focused verification', 'pending'],
    ]);

    const next = await codex('SessionStart', {
      session_id: '019e1695-0522-7c83-8b39-0dd379793f80',
      source: 'startup',
    });
    const text = injected(next.stdout).additionalContext;
    expect(text.length).toBeLessThanOrEqual(9000);
    expect(text).toContain('update the defailt context compart to 90');
    expect(text).toContain('Run focused verification');
    expect((await status()).workflow.session_count).toBe(2);
  });
});

describe('continuity by default: a session cut off in the middle of its turn', () => {
  it('is read to where it stops at the next start, said to the user, and the context names the call that never returned', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo });
    const one = '196820da-0000-4000-8000-000000000021';
    const { path, lines } = transcriptOf('claude-code/codemie-code-2/session-196820da.jsonl', 60);
    await hook('SessionStart', { session_id: one, source: 'startup' });
    await hook('UserPromptSubmit', {
      session_id: one,
      transcript_path: path,
      prompt: lines[5]!.message.content,
    });
    await hook('Stop', { session_id: one, transcript_path: path, stop_hook_active: false });
    const before = await status();

    // the next prompt; the agent works on (its list moves), says what it does, and starts a commit: then the
    // terminal dies. No Stop, no SessionEnd.
    await hook('UserPromptSubmit', {
      session_id: one,
      transcript_path: path,
      prompt: 'go on, and commit it',
    });
    const all = readFileSync(corpusPath('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8').split(
      '\n',
    );
    const now = new Date().toISOString();
    const said = (id: string, content: Json[]) =>
      JSON.stringify({
        type: 'assistant',
        timestamp: now,
        sessionId: one,
        message: { id, role: 'assistant', content },
      });
    appendFileSync(
      path,
      `${[
        ...all.slice(60, 111),
        said('m-cut-1', [{ type: 'text', text: 'The plan is written. Committing it now.' }]),
        said('m-cut-2', [
          {
            type: 'tool_use',
            id: 'toolu-cut',
            name: 'Bash',
            input: { command: 'git commit -am "Add the plan"' },
          },
        ]),
      ].join('\n')}\n`,
    );

    // the terminal died a while ago: its transcript has not changed since
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, past, past);
    const next = await hook('SessionStart', {
      session_id: '196820da-0000-4000-8000-000000000022',
      source: 'startup',
    });
    expect(next.code).toBe(0);
    const out = JSON.parse(next.stdout) as { systemMessage: string; hookSpecificOutput: Json };
    expect(out.systemMessage).toMatch(
      /Baton noticed that session 1 \(Claude Code session \S+\) stopped in the middle of its turn without ending/,
    );
    expect(next.stderr).toMatch(/read \d+ entries that .*session\.jsonl gained since its last import/);
    expect(out.systemMessage).toMatch(/; what it wrote since Baton last read its transcript was read\./);
    const text = out.hookSpecificOutput.additionalContext as string;
    // what it did after its last Stop counts: its list, its last words, the call that never returned
    expect(text).toContain('Committing it now.');
    expect(text).toMatch(
      /The transcript ends before this call returned \(check whether it ran\): `Bash: git commit/,
    );
    expect(text).toMatch(
      /The previous session ended because: crash: session 1 .* stopped in the middle of its turn/,
    );
    const after = await status();
    expect(after.workflow.id).toBe(before.workflow.id);
    expect(taskRows(after).map(([, st]) => st)).toEqual(['done', 'done', 'done', 'done', 'done']);

    // a session that answered and went quiet (Codex never sends SessionEnd) was not cut off
    const sid = (n: number) => `196820da-0000-4000-8000-0000000000${n}`;
    await hook('UserPromptSubmit', { session_id: sid(22), prompt: 'add a licence' });
    await hook('Stop', {
      session_id: sid(22),
      stop_hook_active: false,
      last_assistant_message: 'Licence added.',
    });
    const quiet = await hook('SessionStart', { session_id: sid(23), source: 'startup' });
    expect(quiet.stdout).not.toMatch(/stopped in the middle/);
    // one that did not answer is, the transcript quiet for minutes
    await hook('UserPromptSubmit', { session_id: sid(23), prompt: 'and a changelog' });
    const again = await hook('SessionStart', { session_id: sid(24), source: 'startup' });
    expect(again.stdout).toMatch(/Baton noticed that session \d+ .* stopped in the middle of its turn/);
    // but not while its transcript was written moments ago: another conversation at work, said as such
    await hook('UserPromptSubmit', { session_id: sid(24), prompt: 'and a README' });
    appendFileSync(path, `${said('m-live', [{ type: 'text', text: 'Writing the README.' }])}\n`);
    const live = await hook('SessionStart', { session_id: sid(25), source: 'startup' });
    expect(live.stdout).not.toMatch(/stopped in the middle/);
    expect((JSON.parse(live.stdout) as { systemMessage: string }).systemMessage).toMatch(
      /another conversation wrote its transcript in this worktree \d+ s ago, so it is not taken as cut off/,
    );

    // killed after a message in the middle of its turn ("next I will..."), before its next call: its transcript
    // ends on words, but the prompt's hook saw the turn begin and no Stop ended it
    const mid = join(tempDir('baton-transcript-'), 'mid.jsonl');
    const words = (type: string, message: Json) =>
      JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: sid(26), message });
    writeFileSync(mid, `${words('user', { role: 'user', content: 'write the CLI test' })}\n`);
    await hook('UserPromptSubmit', {
      session_id: sid(26),
      transcript_path: mid,
      prompt: 'write the CLI test',
    });
    appendFileSync(
      mid,
      `${words('assistant', {
        id: 'm-mid',
        role: 'assistant',
        stop_reason: null,
        content: [{ type: 'text', text: 'Test written; next I will run the whole suite and commit.' }],
      })}\n`,
    );
    for (const f of [path, mid]) utimesSync(f, past, past);
    const after26 = await hook('SessionStart', { session_id: sid(27), source: 'startup' });
    expect(after26.stdout).toMatch(/Baton noticed that session \d+ .* stopped in the middle of its turn/);
  });

  it('reads a session cut off in its first turn, before any Stop imported its transcript', async () => {
    const { repo, baton } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo });
    const one = '196820da-0000-4000-8000-000000000031';
    const path = join(tempDir('baton-transcript-'), 'session.jsonl');
    const now = new Date().toISOString();
    const line = (type: string, message: Json) =>
      JSON.stringify({ type, timestamp: now, sessionId: one, message });
    writeFileSync(path, `${line('user', { role: 'user', content: 'run the tests and fix what fails' })}\n`);
    await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: path });
    await hook('UserPromptSubmit', {
      session_id: one,
      transcript_path: path,
      prompt: 'run the tests and fix what fails',
    });
    appendFileSync(
      path,
      `${[
        line('assistant', {
          id: 'm1',
          role: 'assistant',
          content: [{ type: 'text', text: 'Running the suite first.' }],
        }),
        line('assistant', {
          id: 'm2',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu-1', name: 'Bash', input: { command: 'npm test' } }],
        }),
      ].join('\n')}\n`,
    );
    // the terminal died minutes ago
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, past, past);
    const next = await hook('SessionStart', {
      session_id: '196820da-0000-4000-8000-000000000032',
      source: 'startup',
    });
    const out = JSON.parse(next.stdout) as { systemMessage: string; hookSpecificOutput: Json };
    // no Stop ever imported it: what it wrote was read whole (there is no "last Stop" to speak of); the agent spoke
    expect(out.systemMessage).toMatch(
      /stopped in the middle of its turn without ending \(.*; what it wrote was read\. Baton continues workflow/,
    );
    expect(out.hookSpecificOutput.additionalContext).toMatch(
      /The transcript ends before this call returned .*npm test/,
    );
  });
});

describe('continuity by default: a session cut off after the user went on past a usage limit', () => {
  it('is said as cut off, with the call that never returned; the limit is no longer why it stopped', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const one = '196820da-0000-4000-8000-000000000051';
    const path = join(tempDir('baton-transcript-'), `${one}.jsonl`);
    const hook = agentHooks(baton, { cwd: repo, session_id: one, transcript_path: path });
    const line = (type: string, message: Json, more: Json = {}) =>
      JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: one, ...more, message });
    const said = (id: string, text: string) =>
      line('assistant', { id, role: 'assistant', content: [{ type: 'text', text }] });
    const call = (id: string, name: string, input: Json) =>
      line('assistant', {
        id: `m-${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name, input }],
      });
    const result = (id: string, content: string) =>
      line('user', {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content, is_error: false }],
      });
    const write = (...lines: string[]) => appendFileSync(path, `${lines.join('\n')}\n`);
    const ask = async (prompt: string) => {
      write(line('user', { role: 'user', content: prompt }));
      await hook('UserPromptSubmit', { prompt });
    };
    const todo = async (id: string, todos: Json[]) => {
      write(call(id, 'TodoWrite', { todos }), result(id, 'Todos have been modified successfully.'));
      await hook('PostToolUse', {
        tool_name: 'TodoWrite',
        tool_input: { todos },
        tool_use_id: id,
        tool_response: {},
      });
    };
    const item = (content: string, state: string) => ({ content, status: state, activeForm: content });

    await hook('SessionStart', { source: 'startup' });
    // a turn that ends normally
    await ask('Add div to math.js, then tests');
    await todo('toolu-t1', [item('Implement div', 'in_progress'), item('Write tests', 'pending')]);
    write(said('m-plan', 'Plan made; div next.'));
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Plan made; div next.' });
    // the next one a usage limit stops
    await ask('go ahead');
    write(
      call('toolu-w', 'Write', {
        file_path: join(repo, 'math.js'),
        content: 'export const div = (a, b) => a / b;\n',
      }),
      result('toolu-w', 'The file has been updated.'),
    );
    const notice = `Claude AI usage limit reached|${Math.floor(Date.now() / 1000) + 3 * 3600}`;
    write(
      line(
        'assistant',
        { id: 'm-limit', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: notice }] },
        { isApiErrorMessage: true, error: 'rate_limit' },
      ),
    );
    await hook('StopFailure', { error: 'rate_limit', last_assistant_message: notice });
    expect((await status()).usage_limit).toMatch(/^stopped by a usage limit/);

    // after the reset the user goes on in the same conversation: the limit is over
    await ask('continue');
    expect((await status()).usage_limit).toBeNull();
    expect((await baton(['status'])).stdout).not.toMatch(/^agent: /m);
    write(
      call('toolu-c', 'Bash', { command: 'git commit -am "feat: div"' }),
      result('toolu-c', '[main 1a2b3c4] feat: div'),
    );
    await todo('toolu-t2', [item('Implement div', 'completed'), item('Write tests', 'in_progress')]);
    // the test run never returns: the process is killed
    write(call('toolu-n', 'Bash', { command: 'npm test' }));
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, past, past);

    const next = await hook('SessionStart', {
      session_id: '196820da-0000-4000-8000-000000000052',
      source: 'startup',
    });
    const out = JSON.parse(next.stdout) as { systemMessage: string; hookSpecificOutput: Json };
    expect(out.systemMessage).toMatch(
      /^Baton noticed that session 1 \(Claude Code session \S+\) stopped in the middle of its turn without ending \(no Stop or SessionEnd came/,
    );
    const text = out.hookSpecificOutput.additionalContext as string;
    // its last message, what the agent did on the user's "continue" after it, and the call that never returned (as
    // one import of the whole transcript says it)
    expect(text).toMatch(
      /### Last State \(the agent's last message, [^)]+\)\nPlan made; div next\.\n\nThen the user said "continue", and the agent's calls on it, with no word yet: `Bash: git commit -am "feat: div"` worked[^\n]*\n\nThe transcript ends before this call returned \(check whether it ran\): `Bash: npm test`/,
    );
    expect(text).toMatch(
      /The previous session ended because: crash: session 1 .* stopped in the middle of its turn/,
    );
    expect(text).not.toMatch(/usage limit/);
    expect((await status()).usage_limit).toBeNull();
  });
});

describe('continuity by default: the user quits after the last API call failed', () => {
  it('tells the next session the last turn ended on an API error and its request is to be retried, until it is', async () => {
    const { repo, baton } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const one = '196820da-0000-4000-8000-000000000061';
    const path = join(tempDir('baton-transcript-'), `${one}.jsonl`);
    const hook = (event: string, fields: Json = {}, session = one) =>
      baton(
        ['hook', event],
        JSON.stringify({
          cwd: repo,
          hook_event_name: event,
          session_id: session,
          transcript_path: path,
          ...fields,
        }),
      );
    const line = (type: string, message: Json, more: Json = {}) =>
      JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: one, ...more, message });
    const write = (...lines: string[]) => appendFileSync(path, `${lines.join('\n')}\n`);
    const ask = async (prompt: string) => {
      write(line('user', { role: 'user', content: prompt }));
      await hook('UserPromptSubmit', { prompt });
    };
    await hook('SessionStart', { source: 'startup' });
    await ask('Add div to math.js, then tests');
    write(
      line('assistant', { id: 'm-1', role: 'assistant', content: [{ type: 'text', text: 'div is next.' }] }),
    );
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'div is next.' });
    await ask('go ahead');
    // the API is overloaded: Claude Code writes its synthetic message in the agent's place, and the user quits
    const overloaded =
      'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    write(
      line(
        'assistant',
        { id: 'm-e', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: overloaded }] },
        { isApiErrorMessage: true },
      ),
    );
    // (a version without the StopFailure hook: nothing but the transcript says the turn failed)
    await hook('SessionEnd', { reason: 'prompt_input_exit' });

    const next = await hook('SessionStart', { source: 'startup' }, '196820da-0000-4000-8000-000000000062');
    const text = injected(next.stdout).additionalContext;
    const nextStep = text.slice(text.indexOf('### What to Do Next'));
    expect(nextStep).toMatch(
      /The previous session ended because: the last turn ended on an API error \(529 overloaded_error: Overloaded\): the request it was on may not have been carried out; retry it\./,
    );
    expect((await baton(['context'])).stdout).toMatch(/the last turn ended on an API error \(529/);
    // once the user asks again, the turn that failed is history
    await ask('try again');
    expect((await baton(['context'])).stdout).not.toMatch(/ended on an API error/);
  });
});

/** A usage limit's reset as its notice says it, two hours from now in UTC: `5:40pm`. */
function inTwoHours(): string {
  const t = new Date(Date.now() + 2 * 3_600_000);
  const h = t.getUTCHours();
  return `${h % 12 || 12}:${String(t.getUTCMinutes()).padStart(2, '0')}${h < 12 ? 'am' : 'pm'}`;
}

/**
 * Claude Code conversation `one` in a repository set up for it: its hooks, a line of its transcript (`line`), and
 * lines appended to that transcript (`write`).
 */
async function conversation(one: string) {
  const { repo, baton, status } = workspace();
  expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
  const path = join(tempDir('baton-transcript-'), `${one}.jsonl`);
  const hook = agentHooks(baton, { cwd: repo, session_id: one, transcript_path: path });
  const line = (type: string, message: Json) =>
    JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: one, message });
  const write = (...lines: string[]) => appendFileSync(path, `${lines.join('\n')}\n`);
  return { repo, baton, status, path, hook, line, write };
}

describe('continuity by default: a conversation reopened with --resume', () => {
  it('is told its turn was cut off, before the agent said anything, as a new session would be; an answered turn or a usage limit is not', async () => {
    const one = '196820da-0000-4000-8000-000000000041';
    const { repo, baton, status, path, hook, line, write } = await conversation(one);
    const said = (id: string, text: string) =>
      line('assistant', { id, role: 'assistant', content: [{ type: 'text', text }] });
    const call = (id: string, name: string, input: Json) =>
      line('assistant', {
        id: `m-${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name, input }],
      });
    const result = (id: string, content: string) =>
      line('user', {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content, is_error: false }],
      });
    const ask = async (prompt: string) => {
      write(line('user', { role: 'user', content: prompt }));
      await hook('UserPromptSubmit', { prompt });
    };
    // the process died minutes ago: its transcript has not changed since
    const died = () => {
      const past = new Date(Date.now() - 5 * 60_000);
      utimesSync(path, past, past);
    };
    const told = (stdout: string) => (JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '';

    await hook('SessionStart', { source: 'startup' });
    await ask('rename add to sum everywhere');
    // calls only, not a word yet, and the last one never returns: no Stop ever came
    write(
      call('toolu-w', 'Write', {
        file_path: join(repo, 'math.js'),
        content: 'export const sum = (a, b) => a + b;\n',
      }),
      result('toolu-w', 'File created'),
      call('toolu-g', 'Bash', { command: 'grep -rn add .' }),
    );
    died();

    const reopened = await hook('SessionStart', { source: 'resume' });
    expect(reopened.code).toBe(0);
    expect(told(reopened.stdout)).toBe(
      `Baton noticed that session 1 (Claude Code session ${one}) stopped in the middle of its turn without ending, before the agent said anything (no Stop or SessionEnd came: crashed, killed or cut off); what it wrote was read`,
    );
    const text = injected(reopened.stdout).additionalContext;
    expect(text).toMatch(
      /### Last State \(cut off before the agent said anything, [^)]+\)\nThe session was cut off before the agent said anything\. The transcript ends before this call returned \(check whether it ran\): `Bash: grep -rn add \.`\n/,
    );
    expect(text).not.toMatch(/No message since|the agent's last message/);
    expect(text).toMatch(
      /What to Do Next\n.*The previous session ended because: crash: session 1 .* before the agent said anything/,
    );
    // the cut closed Baton's session 1; the reopened conversation goes on as session 2 of the same workflow
    const after = await status();
    expect(after.workflow.session_count).toBe(2);
    const workflow = after.workflow.id as string;
    // reopened again at once, nothing new: it was said, and is not said again
    expect((await hook('SessionStart', { source: 'resume' })).stderr).not.toMatch(/stopped in the middle/);

    // the reopened conversation answers (its turn ends on a message), then its process dies between turns
    write(result('toolu-g', 'math.js:1:export const add'), said('m-done', 'Renamed add to sum in math.js.'));
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Renamed add to sum in math.js.' });
    died();
    const answered = await hook('SessionStart', { source: 'resume' });
    expect(answered.stderr).not.toMatch(/stopped in the middle/);
    // nothing was recorded since its own last turn: its history is the briefing, the agent is told so, not briefed
    expect(answered.stderr).toMatch(/no context injected, its history holds the work/);
    expect(injected(answered.stdout).additionalContext).toBe(
      `Baton follows this conversation as workflow ${workflow} (session 2). Nothing was recorded in it since this conversation's last turn, so the conversation above holds where the work stands; Baton's briefing is there should you need it (\`baton context -w ${workflow}\` shows it whole).`,
    );

    // a turn a usage limit stopped (StopFailure) was not cut off either
    await ask('now update the callers');
    await hook('StopFailure', {
      error: 'rate_limit',
      // two hours ahead, whatever the time of the run (a clock time just past would be read as today's, already reset)
      last_assistant_message: `You've hit your session limit · resets ${inTwoHours()} (UTC)`,
    });
    died();
    // something recorded since its last turn (a task added by hand): it is briefed, not told nothing is new
    expect((await baton(['task', 'add', 'T9:Update the changelog'])).code).toBe(0);
    died();
    const added = injected((await hook('SessionStart', { source: 'resume' })).stdout).additionalContext;
    expect(added).toContain('T9 Update the changelog');
    expect(added).not.toContain('Nothing was recorded');

    const limited = await hook('SessionStart', { source: 'resume' });
    expect(limited.stderr).not.toMatch(/stopped in the middle/);
    expect(injected(limited.stdout).additionalContext).toMatch(
      /Nothing was recorded in it since this conversation's last turn.*Its last turn was stopped by a usage limit/,
    );

    // one that had spoken when its process died is cut off too (said as such, without "before ... said anything")
    await ask('and the README');
    write(
      said('m-readme', 'Updating the README now.'),
      call('toolu-r', 'Bash', { command: 'git commit -am readme' }),
    );
    died();
    const cut = await hook('SessionStart', { source: 'resume' });
    expect(told(cut.stdout)).toMatch(
      new RegExp(
        `^Baton noticed that session \\d+ \\(Claude Code session ${one}\\) stopped in the middle of its turn without ending \\(no Stop or SessionEnd came`,
      ),
    );
    expect(injected(cut.stdout).additionalContext).toMatch(
      /### Last State \(the agent's last message, [^)]+\)\nUpdating the README now\.\n\nThe transcript ends before this call returned/,
    );
    expect((await status()).workflow.id).toBe(workflow);
  });

  it('is not briefed again after a quit that followed a turn which only talked: the quit left a snapshot', async () => {
    const { repo, status, hook, line, write } = await conversation('196820da-0000-4000-8000-000000000042');
    const turn = async (prompt: string, answer: string, ...calls: string[]) => {
      write(line('user', { role: 'user', content: prompt }));
      await hook('UserPromptSubmit', { prompt });
      write(
        ...calls,
        line('assistant', {
          id: `m-${prompt.length}`,
          role: 'assistant',
          content: [{ type: 'text', text: answer }],
        }),
      );
      return hook('Stop', { stop_hook_active: false, last_assistant_message: answer });
    };

    await hook('SessionStart', { source: 'startup' });
    const file = join(repo, 'math.js');
    writeFileSync(file, 'export const sum = (a, b) => a + b;\n');
    const wrote = await turn(
      'add a sum function',
      'Added sum to math.js.',
      line('assistant', {
        id: 'm-w',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu-w', name: 'Write', input: { file_path: file, content: 'x' } },
        ],
      }),
      line('user', {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu-w', content: 'File created' }],
      }),
    );
    expect(wrote.stderr).toMatch(/checkpoint \S+/);
    // a turn that only talks: no task or file moved, so its Stop takes no checkpoint (nor would it when the last is old)
    const talked = await turn('why sum and not plus?', 'sum matches the name the callers already use.');
    expect(talked.stderr).toMatch(/no checkpoint/);
    const quit = await hook('SessionEnd', { reason: 'prompt_input_exit' });
    expect(quit.stderr).toMatch(/session 1 ended/);

    const reopened = await hook('SessionStart', { source: 'resume' });
    expect(reopened.stderr).toMatch(/no context injected, its history holds the work/);
    expect(injected(reopened.stdout).additionalContext).toMatch(
      /^Baton follows this conversation as workflow \S+ \(session 2\)\. Nothing was recorded in it since this conversation's last turn/,
    );
    expect((await status()).workflow.session_count).toBe(2);
  });
});

describe('continuity by default: a Codex conversation resumed after its turn ended', () => {
  it('is not said cut off (a Stop came, though the turn ended on a command, not words), and reads nothing new', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const id = '019e1625-789d-76c0-80ab-3724b5ddb799';
    // what Codex writes at the start of each turn (`turnStarts`) comes before the turn's hooks run: it runs the start
    // hook of a resumed conversation at its first turn
    const { path, line, write, hook: codex, turnStarts, ask } = codexConversation(repo, baton, id);
    const run = (callId: string, cmd: string, output: string) =>
      write(
        line('response_item', {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd }),
          call_id: callId,
        }),
        line('response_item', { type: 'function_call_output', call_id: callId, output }),
      );
    const told = (stdout: string) => (JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '';
    // the process quit minutes ago (a Codex older than its SessionEnd sends none): its rollout has not changed since
    const quit = () => {
      const past = new Date(Date.now() - 5 * 60_000);
      utimesSync(path, past, past);
    };

    write(line('session_meta', { id, cwd: repo, cli_version: '0.144.2' }));
    await codex('SessionStart', { source: 'startup' });
    turnStarts();
    await ask('run the linter and fix what it finds');
    write(
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Running the linter first.' }],
      }),
    );
    run('call-1', 'npm run lint', 'Process exited with code 0\nOutput:\nno problems');
    // the turn ends on that command: the model's last response has no words (Stop's last message is null)
    const stop = await codex('Stop', { stop_hook_active: false, last_assistant_message: null });
    expect(stop.code).toBe(0);
    write(line('event_msg', { type: 'task_complete', last_agent_message: null }));
    quit();

    // `codex resume`, then the user's next prompt: the start hook reads only Codex's bookkeeping lines
    turnStarts();
    const resumed = await codex('SessionStart', { source: 'resume' });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).not.toMatch(/stopped in the middle|read 0 entries/);
    expect(resumed.stderr).toMatch(/nothing new in \S+rollout-\S+ since its last import/);
    expect(told(resumed.stdout)).toBe('');
    // its last turn ended (a Stop, which took no checkpoint: no SessionEnd comes from Codex) and nothing was recorded
    // nor moved in git since: the conversation above holds where the work stands, it is not briefed again
    const text = injected(resumed.stdout).additionalContext;
    expect(text).toMatch(
      /^Baton follows this conversation as workflow \S+ \(session 1\)\. Nothing was recorded in it since this conversation's last turn/,
    );
    expect(text).not.toMatch(/crash|cut off|ends before/);
    // the conversation goes on as the same Baton session
    expect((await status()).workflow.session_count).toBe(1);
    // those lines held no entry (no import mark moves for them), but they were read: the next start does not read
    // them again
    const again = await codex('SessionStart', { source: 'resume' });
    expect(again.stderr).not.toContain('since its last import');
    // a file written by hand since that turn: git moved, the conversation does not know it, so it is briefed
    writeFileSync(join(repo, 'NOTES.md'), 'lint rules to discuss\n');
    const moved = await codex('SessionStart', { source: 'resume' });
    expect(injected(moved.stdout).additionalContext).toMatch(
      /### Last State \(the agent's last message, [^)]+\)\nRunning the linter first\./,
    );

    // a turn that really was cut off (the process died before its Stop) is still said so at the next resume
    await ask('now fix the warnings');
    run('call-2', 'npx eslint --fix .', 'Process exited with code 0\nOutput:\n');
    write(
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"npm test"}',
        call_id: 'call-3',
      }),
    );
    quit();
    turnStarts();
    const cut = await codex('SessionStart', { source: 'resume' });
    expect(told(cut.stdout)).toMatch(
      new RegExp(
        `^Baton noticed that session 1 \\(Codex session ${id}\\) stopped in the middle of its turn without ending \\(no Stop or SessionEnd came`,
      ),
    );
  });
});

describe('continuity by default: a conversation reopened and left between turns', () => {
  it('is not taken for one at work by a new conversation beside it (no agent process to see, as on macOS)', async () => {
    const { repo, baton } = workspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const a = codexConversation(repo, baton, '019e1625-0000-7000-8000-00000000000a');
    a.turnStarts();
    await a.hook('SessionStart', { source: 'startup' });
    await a.ask('add a readme');
    await a.stop('Added README.md.');
    // reopened, and left before any prompt: still between turns
    await a.hook('SessionStart', { source: 'resume' });
    const b = codexConversation(repo, baton, '019e1625-0000-7000-8000-00000000000b');
    b.start();
    const started = await b.hook('SessionStart', { source: 'startup' });
    expect(started.code, started.stderr).toBe(0);
    const text = injected(started.stdout).additionalContext;
    expect(text).toContain('add a readme');
    expect(text).not.toMatch(/Another conversation of this worktree|ask the user whether/);
  });
});

describe('continuity by default: a Codex /clear after the plan was done', () => {
  it('completes the workflow (no process to see, as on macOS): the cleared conversation is over, Codex sends no SessionEnd', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const a = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000c1');
    a.turnStarts();
    await a.hook('SessionStart', { source: 'startup' });
    await a.ask('add a readme and a licence');
    a.plan('1', [
      ['Write README.md', 'completed'],
      ['Add LICENSE', 'completed'],
    ]);
    await a.hook('PostToolUse', {
      tool_name: 'update_plan',
      tool_input: {
        plan: [
          { step: 'Write README.md', status: 'completed' },
          { step: 'Add LICENSE', status: 'completed' },
        ],
      },
      tool_response: 'Plan updated',
    });
    await a.stop('Both are added.');
    const done = (await status()).workflow.id as string;
    const b = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000c2');
    b.start();
    const cleared = await b.hook('SessionStart', { source: 'clear' });
    expect(cleared.code, cleared.stderr).toBe(0);
    const told = (JSON.parse(cleared.stdout) as { systemMessage?: string }).systemMessage ?? '';
    expect(told).toContain(`Baton completed workflow ${done}`);
    expect((await status()).workflow.id).not.toBe(done);
    // a startup beside a conversation between turns is no /clear: its workflow goes on
    const { repo: repo2, baton: baton2 } = workspace();
    expect((await baton2(['init', '--agent', 'codex'])).code).toBe(0);
    const c = codexConversation(repo2, baton2, '019e1625-0000-7000-8000-0000000000c3');
    c.turnStarts();
    await c.hook('SessionStart', { source: 'startup' });
    await c.ask('add a readme');
    c.plan('1', [['Write README.md', 'completed']]);
    await c.stop('Added.');
    const d = codexConversation(repo2, baton2, '019e1625-0000-7000-8000-0000000000c4');
    d.start();
    const beside = await d.hook('SessionStart', { source: 'startup' });
    expect((JSON.parse(beside.stdout) as { systemMessage?: string }).systemMessage ?? '').not.toContain(
      'Baton completed',
    );
  });
});

describe('continuity by default: a new conversation after finished work', () => {
  it('says in `baton status` when an open error alone keeps finished work from being over, and how to resolve it', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo });
    const sid = '196820da-0000-4000-8000-000000000021';
    const { path, lines } = transcriptOf('claude-code/codemie-code-2/session-196820da.jsonl', 111);
    await hook('SessionStart', { session_id: sid, source: 'startup' });
    await hook('UserPromptSubmit', {
      session_id: sid,
      transcript_path: path,
      prompt: lines[5]!.message.content,
    });
    await hook('Stop', { session_id: sid, transcript_path: path, stop_hook_active: false });
    // a CI failure recorded, fixed where Baton did not see it
    const recorded = await baton([
      'record',
      'error',
      '--type',
      'ci_failure',
      '--message',
      'CI check failed: type-check',
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    await hook('SessionEnd', { session_id: sid, transcript_path: path, reason: 'prompt_input_exit' });
    const held = await status();
    const err = (held.open_errors as Json[])[0]!.id as string;
    expect(held.completes_at_next_start).toBeNull();
    expect(held.not_over).toBe(
      `1 open error (${err}: ci_failure: CI check failed: type-check) holds it, though all 5 of its tasks are done and Claude Code session ${sid} ended (the user quit); resolve it with \`baton record resolve ${err} --resolution fixed\` if it no longer applies`,
    );
    const said = (await baton(['status'])).stdout;
    expect(said).toContain(`\nnot over: ${held.not_over as string}\n`);
    expect(said).not.toContain('work over:');
    // resolved: the work is over, and status says that instead
    expect((await baton(['record', 'resolve', err, '--resolution', 'fixed'])).code).toBe(0);
    const over = await status();
    expect(over.not_over).toBeNull();
    expect(over.completes_at_next_start).toMatch(/^all 5 of its tasks are done and /);
    const now = (await baton(['status'])).stdout;
    expect(now).toMatch(/^work over: /m);
    expect(now).not.toContain('not over:');
  });

  it('continues after a crash or /clear, and starts a new workflow once the work is done and the user quit', async () => {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo });
    const id = (n: number) => `196820da-0000-4000-8000-00000000001${n}`;

    // one session works through its whole TodoWrite list
    const { path, lines } = transcriptOf('claude-code/codemie-code-2/session-196820da.jsonl', 111);
    const prompt = lines[5]!.message.content as string;
    await hook('SessionStart', { session_id: id(1), source: 'startup' });
    await hook('UserPromptSubmit', { session_id: id(1), transcript_path: path, prompt });
    await hook('Stop', { session_id: id(1), transcript_path: path, stop_hook_active: false });
    const done = await status();
    expect(taskRows(done).every(([, st]) => st === 'done')).toBe(true);
    const first = done.workflow.id as string;

    // no SessionEnd came (the terminal was closed, the agent crashed, minutes ago): a new conversation continues
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, past, past);
    const afterCrash = await hook('SessionStart', { session_id: id(2), source: 'startup' });
    expect(injected(afterCrash.stdout).additionalContext).toContain('Create implementation plan');
    // the user is told which work this conversation goes on with, and, its tasks all done, how to say it is over
    expect((JSON.parse(afterCrash.stdout) as { systemMessage: string }).systemMessage).toMatch(
      new RegExp(
        `Baton continues workflow ${first} ".+" in this conversation \\(session 2, 5/5 done\\); if that work is over, \`baton complete -w ${first}\` completes it and your next prompt starts a new one`,
      ),
    );
    expect((await status()).workflow.id).toBe(first);

    // the user /clears (many do to switch tasks) with the work done: the next conversation is not told to continue it
    // (a SessionEnd whose transcript holds nothing new still ends the session)
    const quit = await hook('SessionEnd', { session_id: id(2), transcript_path: path, reason: 'clear' });
    expect(quit.stderr).toMatch(/session 2 ended/);
    // `baton status` says why it is still open, and what completes it
    const quitStatus = await status();
    expect(quitStatus.completes_at_next_start).toMatch(/^all 5 of its tasks are done and /);
    const said = await baton(['status']);
    expect(said.stdout).toMatch(
      /^work over: all 5 of its tasks are done and .+, so the next new agent conversation here completes this workflow and starts a new one \(`baton complete` completes it now\)$/m,
    );
    // `baton sessions` and `baton list` say the same of it, not "in_progress, not stopped"
    const row = (out: string) => out.split('\n').find((l) => l.includes(first)) ?? '';
    expect(row((await baton(['sessions'])).stdout)).toContain(
      'no: its work is over; the next agent conversation in its worktree completes it',
    );
    expect(row((await baton(['list'])).stdout)).toMatch(new RegExp(`^${first}\\s+work over\\s`));
    const fresh = await hook('SessionStart', { session_id: id(3), source: 'clear' });
    expect(fresh.code).toBe(0);
    const out = JSON.parse(fresh.stdout) as { systemMessage: string; hookSpecificOutput: Json };
    const text = out.hookSpecificOutput.additionalContext as string;
    expect(text).toContain(`Baton completed the last workflow ${first}`);
    expect(text).toContain(`baton context -w ${first}`);
    expect(text).toContain('all 5 of its tasks are done');
    expect(text).toContain('This session is not asked to continue it');
    // what it did, small: the request and its tasks, all done
    expect(text).toContain(prompt.slice(0, 40));
    expect(text).toContain('[x] T5 Create implementation plan');
    expect(text).toContain('### Plan Status: 5/5 tasks done');
    // and no next step: it is not to be continued
    expect(text).not.toContain('What to Do Next');
    expect(text.length).toBeLessThanOrEqual(9000);
    expect(out.systemMessage).toMatch(
      new RegExp(`Baton completed workflow ${first}.*followed as a new workflow`),
    );
    const now = await status();
    expect(now.workflow.id).not.toBe(first);
    expect(now.tasks).toEqual([]);
    const listed = (await baton(['list', '--json'])).json<{ workflows: Json[] }>().workflows;
    expect(listed.find((w) => w.id === first)).toMatchObject({ status: 'completed' });
    // the finished workflow is still there to read
    expect((await baton(['context', '-w', first])).stdout).toContain('Create implementation plan');

    // the new conversation's request is the new workflow's
    await hook('UserPromptSubmit', { session_id: id(3), prompt: 'add a --json flag to the export command' });
    expect((await status()).workflow.issue.title).toContain('add a --json flag');
  });
});

describe('continuity by default: a new conversation after the last task was done by a command', () => {
  /** Conversation s1 asked for a LICENSE, and the agent's tools (or the user) added task T1 and started it. */
  async function licenseTaskStarted() {
    const { repo, baton, status } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo });
    await hook('SessionStart', { session_id: 's1', source: 'startup' });
    await hook('UserPromptSubmit', { session_id: 's1', prompt: 'add an MIT LICENSE file' });
    expect((await baton(['task', 'add', 'T1:Write the LICENSE file'])).code).toBe(0);
    expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
    return { baton, status, hook };
  }

  it('is told what the completed workflow did, once, and follows a new one', async () => {
    const { baton, status, hook } = await licenseTaskStarted();
    // the user quits, then marks the task done: with no conversation open on the workflow, its last task done
    // completes it (while one is open, the conversation's end does)
    await hook('SessionEnd', { session_id: 's1', reason: 'prompt_input_exit' });
    expect((await baton(['task', 'done', 'T1'])).code).toBe(0);
    const first = (await baton(['list', '--json'])).json<{ workflows: Json[] }>().workflows[0]!;
    expect(first.status).toBe('completed');

    const fresh = await hook('SessionStart', { session_id: 's2', source: 'startup' });
    const out = JSON.parse(fresh.stdout) as { systemMessage: string; hookSpecificOutput: Json };
    const text = out.hookSpecificOutput.additionalContext as string;
    expect(text).toMatch(
      new RegExp(
        `^The last workflow ${first.id} \\("add an MIT LICENSE file"\\) here was completed at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\. This session is not asked to continue it`,
      ),
    );
    expect(text).toContain('[x] T1 Write the LICENSE file');
    expect(text).not.toContain('What to Do Next');
    expect(out.systemMessage).toMatch(
      new RegExp(
        `The last workflow ${first.id} \\("add an MIT LICENSE file"\\) here was completed at .+; this session is followed as a new workflow`,
      ),
    );
    const second = (await status()).workflow.id as string;
    expect(second).not.toBe(first.id);
    // told once: the next new conversation follows the new workflow, not the completed one
    await hook('UserPromptSubmit', { session_id: 's2', prompt: 'now add a README' });
    const again = await hook('SessionStart', { session_id: 's3', source: 'startup' });
    expect(again.stdout).not.toContain(`The last workflow ${first.id}`);
  });

  it('is not completed by it while the conversation is open: the command says it completes when that ends', async () => {
    const { baton, status, hook } = await licenseTaskStarted();
    const done = await baton(['task', 'done', 'T1']);
    expect(done.stdout).toMatch(
      /is in_progress\)\n[^]*every task is finished: the workflow completes when the agent conversation open on it ends \(a quit or \/clear\)/,
    );
    expect((await status()).workflow.status).toBe('in_progress');
    // the same conversation asks for more: it goes on in the same workflow
    await hook('UserPromptSubmit', { session_id: 's1', prompt: 'and a README' });
    expect((await status()).workflow.issue.title).toContain('add an MIT LICENSE file');
  });
});

describe('continuity by default: a compaction', () => {
  // Claude Code runs the compacted session's start (source `compact`) and PostCompact in an order it does not
  // document: each order injects the briefing once, and the next prompt of the compacted conversation adds none
  it.each([
    ['the compacted start, then PostCompact', ['SessionStart', 'PostCompact']],
    ['PostCompact, then the compacted start', ['PostCompact', 'SessionStart']],
  ])('injects the briefing once: %s', async (_, order) => {
    const { repo, baton } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const rel = 'claude-code/codemie-code/session-624a4a58.jsonl';
    const sid = '624a4a58-b34c-462d-a70d-13421c8125a8';
    // the conversation up to its compaction (line 158 is the boundary, 159 the summary that opens the new context)
    const { path, lines } = transcriptOf(rel, 157);
    const hook = agentHooks(baton, { cwd: repo, session_id: sid, transcript_path: path });
    const all = readFileSync(corpusPath(rel), 'utf8').split('\n').filter(Boolean);
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: lines[5]!.message.content as string });
    await hook('Stop', { stop_hook_active: false });
    expect((await hook('PreCompact', { trigger: 'auto' })).stderr).toMatch(/before compaction/);
    // the transcript gains the boundary and the summary: the compacted start reads them (a snapshot of its own)
    appendFileSync(path, `${all.slice(157, 159).join('\n')}\n`);
    const summary = (lines[158]!.message.content as string).replace(/^[\s\S]*?summarized below:\n/, '');
    const said: Record<string, { stdout: string; stderr: string }> = {};
    for (const event of order)
      said[event] = await hook(
        event,
        event === 'SessionStart' ? { source: 'compact' } : { trigger: 'auto', compact_summary: summary },
      );
    expect(injected(said.SessionStart!.stdout).additionalContext).toContain('## Session Resume Context');
    expect(said.PostCompact!.stdout).toBe('');
    expect(said.PostCompact!.stderr).toMatch(
      order[0] === 'SessionStart'
        ? /the compacted session already got the context at its start/
        : /the next prompt or session start injects the context/,
    );

    // the compacted conversation works on; its next prompt is recorded, and injects nothing more
    appendFileSync(path, `${all.slice(159, 170).join('\n')}\n`);
    await hook('Stop', { stop_hook_active: false });
    const next = await hook('UserPromptSubmit', { prompt: 'go on with the error handling' });
    expect(next.stderr).toMatch(/request recorded/);
    expect(next.stdout).toBe('');
    const snaps = (await baton(['snapshots', '--json'])).json<{ snapshots: { trigger: string }[] }>();
    expect(snaps.snapshots.filter((s) => s.trigger === 'handover')).toHaveLength(1);
    expect(snaps.snapshots.filter((s) => s.trigger === 'exhaustion')).toHaveLength(1);
  });
});
