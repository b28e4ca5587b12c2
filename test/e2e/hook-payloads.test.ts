import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { claudeTool } from '../helpers/transcript-lines.js';

/**
 * Hook payloads as real agent versions send them, with what varies between versions and machines: missing ids,
 * folders that went away, subagents, slash commands, transcripts not written yet, a byte-order mark. Each goes to
 * the built binary; the agent must never be broken, and the user told only of what is really wrong.
 */
type Status = Record<string, any>;

function workspace() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
  const hook = (event: string, payload: Record<string, unknown> | string, cwd = repo) =>
    runCli(['hook', event], {
      cwd,
      env,
      input: typeof payload === 'string' ? payload : JSON.stringify({ hook_event_name: event, ...payload }),
    });
  const baton = (args: string[], more: Record<string, string> = {}) =>
    runCli(args, { cwd: repo, env: { ...env, ...more } });
  const status = async () => (await baton(['status', '--json'])).json<Status>();
  const requests = async () => {
    const snap = (await baton(['checkpoint', '--name', 'look', '--json'])).json<{
      checkpoint: { snapshot_id: string };
    }>();
    const out = await baton(['details', snap.checkpoint.snapshot_id, 'requests', '--json']);
    return (JSON.parse(out.stdout) as { text: string }[]).map((r) => r.text);
  };
  return { repo, env, hook, baton, status, requests };
}

const contextOf = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

describe('hook payloads without a session id', () => {
  it('continue the open session instead of ending it; a transcript name gives the id', async () => {
    const { repo, hook, status } = workspace();
    await hook('SessionStart', { session_id: 's1', cwd: repo, source: 'startup' });
    const r = await hook('UserPromptSubmit', { cwd: repo, prompt: 'Fix the login bug' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/request recorded/);
    await hook('PostCompact', { cwd: repo, trigger: 'auto' });
    await hook('UserPromptSubmit', { session_id: 's1', cwd: repo, prompt: 'and add a test' });
    let s = await status();
    expect(s.workflow).toMatchObject({ session_count: 1, title: 'Fix the login bug' });

    // the transcript's file name is the session id Claude Code would have sent
    const id = '4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe';
    await hook('UserPromptSubmit', {
      cwd: repo,
      transcript_path: join(repo, `${id}.jsonl`),
      prompt: 'next session',
    });
    await hook('UserPromptSubmit', { session_id: id, cwd: repo, prompt: 'same session' });
    s = await status();
    expect(s.workflow.session_count).toBe(2);
  });

  it('a session start without one makes the workflow any start makes: named from the first request', async () => {
    const { repo, hook, status } = workspace();
    const start = await hook('SessionStart', { cwd: repo, source: 'startup' });
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(/following this session as workflow wf-/);
    await hook('UserPromptSubmit', { cwd: repo, prompt: 'Fix the login bug' });
    let s = await status();
    expect(s.workflow).toMatchObject({ title: 'Fix the login bug', status: 'in_progress', session_count: 1 });
    // the next hook that names the session ties it to the session the start opened
    await hook('UserPromptSubmit', { session_id: 's1', cwd: repo, prompt: 'and add a test' });
    s = await status();
    expect(s.workflow).toMatchObject({ title: 'Fix the login bug', session_count: 1 });
  });
});

describe('the folder a hook names', () => {
  it('finds the repository above a folder the agent deleted, and tells a session whose folder is nowhere', async () => {
    const { repo, hook, requests, env } = workspace();
    mkdirSync(join(repo, 'build', 'out'), { recursive: true });
    rmSync(join(repo, 'build'), { recursive: true });
    const r = await hook('UserPromptSubmit', {
      session_id: 's1',
      cwd: join(repo, 'build', 'out'),
      prompt: 'the build folder is gone, rebuild it',
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/request recorded/);
    expect(await requests()).toEqual(['the build folder is gone, rebuild it']);

    const elsewhere = tempDir('baton-none-');
    const gone = await runCli(['hook', 'SessionStart'], {
      cwd: elsewhere,
      env,
      input: JSON.stringify({ session_id: 's2', cwd: '/no/such/folder', hook_event_name: 'SessionStart' }),
    });
    expect(gone.code).toBe(0);
    expect(JSON.parse(gone.stdout)).toEqual({
      systemMessage: 'Baton is not following this session: its folder /no/such/folder does not exist',
    });

    // another machine's path (a devcontainer, a remote agent) with the hook started in a repository: that one
    const remote = await hook('UserPromptSubmit', {
      session_id: 's1',
      cwd: '/Users/someone/projects/app',
      prompt: 'and the export too',
    });
    expect(remote).toMatchObject({ code: 0, stdout: '' });
    expect(remote.stderr).toMatch(/request recorded/);
    expect(await requests()).toEqual(['the build folder is gone, rebuild it', 'and the export too']);
  });
});

describe('hooks fired inside a subagent', () => {
  it("leave the session's task list alone (as the transcript import leaves sidechains out)", async () => {
    const { repo, hook, status } = workspace();
    await hook('SessionStart', { session_id: 's1', cwd: repo, source: 'startup' });
    const r = await hook('PostToolUse', {
      session_id: 's1',
      cwd: repo,
      agent_id: 'ad597e734e874e0b9',
      agent_type: 'Explore',
      tool_name: 'TodoWrite',
      tool_use_id: 'toolu_1',
      tool_input: { todos: [{ content: 'Scan the repo', status: 'in_progress', activeForm: 'Scanning' }] },
      tool_response: {},
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/fired inside the subagent Explore ad597e734e874e0b9/);
    const s = await status();
    expect(s.tasks).toEqual([]);
    expect(s.workflow.session_count).toBe(1);
  });

  it("leave it alone when the tool hook names no agent_id (older Claude Code): the call is in a subagent's file", async () => {
    const { repo, hook, status } = workspace();
    const folder = tempDir('baton-project-');
    const transcript = join(folder, 's1.jsonl');
    const todos = (content: string) => ({ todos: [{ content, status: 'in_progress', activeForm: content }] });
    writeFileSync(
      transcript,
      `${claudeTool('toolu_main', 'TodoWrite', todos('Write README'), 'ok').join('\n')}\n`,
    );
    mkdirSync(join(folder, 's1', 'subagents'), { recursive: true });
    const sub = join(folder, 's1', 'subagents', 'agent-a1.jsonl');
    const subCall = claudeTool('toolu_sub', 'TodoWrite', todos('Collect links'), 'ok')[0] as string;
    writeFileSync(sub, `${subCall}\n`);
    // Claude Code 2.1 relays the sub-agent's message into the session's transcript as a progress line: its id is
    // named there too, and still the call is the sub-agent's
    const relayed = {
      type: 'progress',
      data: { type: 'agent_progress', agentId: 'a1', message: JSON.parse(subCall) },
    };
    appendFileSync(transcript, `${JSON.stringify(relayed)}\n`);
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript, tool_name: 'TodoWrite' };
    await hook('SessionStart', {
      session_id: 's1',
      cwd: repo,
      transcript_path: transcript,
      source: 'startup',
    });
    const main = await hook('PostToolUse', {
      ...base,
      tool_use_id: 'toolu_main',
      tool_input: todos('Write README'),
    });
    expect(main.stderr).toMatch(/task list: added T1/);
    const r = await hook('PostToolUse', {
      ...base,
      tool_use_id: 'toolu_sub',
      tool_input: todos('Collect links'),
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain(`the call toolu_sub is a subagent's (it is in ${sub}`);
    expect((await status()).tasks.map((t: { title: string; status: string }) => [t.title, t.status])).toEqual(
      [['Write README', 'in_progress']],
    );
  });
});

describe("what a session's sub-agents did", () => {
  it('is read at the Stop from their own files: their test runs and the files they changed, not their words', async () => {
    const { repo, hook, status, requests } = workspace();
    const folder = tempDir('baton-project-');
    const transcript = join(folder, 's1.jsonl');
    const at = new Date().toISOString();
    const line = (o: Record<string, unknown>) =>
      JSON.stringify({ sessionId: 's1', cwd: repo, timestamp: at, ...o });
    writeFileSync(
      transcript,
      `${[
        line({
          type: 'user',
          message: { role: 'user', content: 'have a sub-agent write the tests and run them' },
        }),
        ...claudeTool(
          'toolu_task',
          'Task',
          { prompt: 'Write tests for src/app.js and run them' },
          'Tests written; 1 fails.',
        ),
      ].join('\n')}\n`,
    );
    // the sub-agent's own file: it writes a test, runs it (it fails), as Claude Code 2.1 keeps it
    mkdirSync(join(folder, 's1', 'subagents'), { recursive: true });
    const sub = (o: Record<string, unknown>) => line({ isSidechain: true, agentId: 'a1', ...o });
    const testFile = join(repo, 'test', 'app.test.js');
    writeFileSync(
      join(folder, 's1', 'subagents', 'agent-a1.jsonl'),
      `${[
        sub({ type: 'user', message: { role: 'user', content: 'Write tests for src/app.js and run them' } }),
        ...claudeTool(
          'toolu_w',
          'Write',
          { file_path: testFile, content: 'test' },
          `File created successfully at: ${testFile}`,
        ).map((l) => sub(JSON.parse(l) as Record<string, unknown>)),
        ...claudeTool(
          'toolu_t',
          'Bash',
          { command: 'node --test test/' },
          'not ok 1 - works\n# tests 1\n# pass 0\n# fail 1',
          true,
        ).map((l) => sub(JSON.parse(l) as Record<string, unknown>)),
      ].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('SessionStart', { ...base, source: 'startup' });
    await hook('UserPromptSubmit', { ...base, prompt: 'have a sub-agent write the tests and run them' });
    const stop = await hook('Stop', { ...base, stop_hook_active: false });
    expect(stop.stderr).toContain('read what 1 sub-agent did (test runs, files changed)');
    const s = (await status()) as unknown as {
      test_state: { phase: string; failed: number | null } | null;
      side_effects: { summary: string }[];
    };
    expect(s.test_state).toMatchObject({ phase: 'red', failed: 1 });
    expect(s.side_effects.map((e) => e.summary)).toEqual([`created ${testFile}`]);
    // the sub-agent's prompt is the main agent's words, not a request of the user's
    expect(await requests()).toEqual(['have a sub-agent write the tests and run them']);
    // the session goes on (its transcript grows), the sub-agent's file does not: it is not read again
    appendFileSync(
      transcript,
      `${line({ type: 'user', message: { role: 'user', content: 'and the docs?' } })}\n`,
    );
    await hook('UserPromptSubmit', { ...base, prompt: 'and the docs?' });
    const again = await hook('Stop', { ...base, stop_hook_active: false });
    expect(again.stderr).toMatch(/imported \d+ new transcript entr/);
    expect(again.stderr).not.toContain('sub-agent did');
    expect(((await status()) as unknown as { counts: { test_runs: number } }).counts.test_runs).toBe(1);
    // the sub-agent goes on (a background agent) and the session compacts: its file is no conversation to catch up on
    appendFileSync(
      join(folder, 's1', 'subagents', 'agent-a1.jsonl'),
      `${sub({ type: 'user', message: { role: 'user', content: 'Also check the docs folder please' } })}\n`,
    );
    await hook('SessionStart', { ...base, source: 'compact' });
    expect(await requests()).toEqual(['have a sub-agent write the tests and run them', 'and the docs?']);
    expect((await status()).workflow.title).toBe('have a sub-agent write the tests and run them');
  });
});

describe('slash commands in prompts', () => {
  it('record what the transcript import records: one request for a custom command, none for a built-in', async () => {
    const { repo, hook, requests } = workspace();
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    // the real turn: the user typed a custom command with arguments (Claude Code 2.1.38)
    const lines = readFileSync(corpusPath('claude-code/spotter/subagent.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 6);
    writeFileSync(transcript, `${lines.join('\n')}\n`);
    const typed =
      '/handgemacht:create-beads websearch to learn how to fastest setup credo, dialyzer, mix_audit (basically all supported by https://github.com/bradleygolden/claude-marketplace-elixir)\n\nMaybe there are igniter scripts?';
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('SessionStart', { ...base, source: 'startup' });
    expect((await hook('UserPromptSubmit', { ...base, prompt: '/model opus' })).stderr).toMatch(
      /no request in the prompt/,
    );
    expect((await hook('UserPromptSubmit', { ...base, prompt: typed })).stderr).toMatch(/request recorded/);
    const stop = await hook('Stop', { ...base, stop_hook_active: false });
    expect(stop.stderr).toMatch(/imported \d+ new transcript entries/);
    const texts = await requests();
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^websearch to learn how to fastest setup credo/);
  });
});

describe('transcripts not written yet', () => {
  it('are nothing to report at Stop (empty, first line half written) and at a SessionEnd before any prompt', async () => {
    const { repo, hook, baton } = workspace();
    await hook('SessionStart', { session_id: 's1', cwd: repo, source: 'startup' });
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    writeFileSync(transcript, '');
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    let r = await hook('Stop', { ...base, stop_hook_active: true });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/nothing written yet/);
    writeFileSync(transcript, '{"type":"user","message":{"role":"user","content":"Fix th');
    r = await hook('Stop', base);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    r = await hook('SessionEnd', {
      ...base,
      transcript_path: join(repo, 'never-written.jsonl'),
      reason: 'other',
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/no transcript at .*never-written\.jsonl \(none written\)/);
    const doctor = (await baton(['doctor', '--json'])).json<Status>();
    expect(doctor.last_hooks).toContainEqual(
      expect.objectContaining({ agent: 'claude-code', event: 'Stop', outcome: 'nothing' }),
    );
    expect(doctor.problems.join('\n')).not.toMatch(/Stop|SessionEnd/);
  });

  it('a line damaged in the middle is skipped at Stop, and the Stop says so (its note, in doctor)', async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    const user = (text: string) =>
      JSON.stringify({ type: 'user', sessionId: 's1', cwd: repo, message: { role: 'user', content: text } });
    writeFileSync(
      transcript,
      `${user('Fix the upload test')}\n{"type":"assistant","mess\n${user('And the docs')}\n`,
    );
    const r = await hook('Stop', { session_id: 's1', cwd: repo, transcript_path: transcript });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /imported 2 new transcript entries .*; 1 line of the transcript skipped, not read \(line 2: /,
    );
    const doctor = (await baton(['doctor', '--json'])).json<Status>();
    expect(doctor.last_hooks.find((h: Status) => h.event === 'Stop').note).toContain(
      '1 line of the transcript skipped, not read (line 2: ',
    );
  });
});

describe('a session start that could not reach the store', () => {
  it('gives the briefing at the first prompt that gets through, once, and tells the user Baton works again', async () => {
    const { repo, env, hook, baton } = workspace();
    const base = { session_id: 's1', cwd: repo };
    await hook('SessionStart', { ...base, source: 'startup' });
    await hook('UserPromptSubmit', { ...base, prompt: 'Write the CSV exporter' });
    expect((await baton(['task', 'add', 'T1:Write the CSV exporter'])).code).toBe(0);
    // the next conversation starts while the store is out of reach (a database that does not answer)
    const down = await runCli(['hook', 'SessionStart'], {
      cwd: repo,
      env: { ...env, BATON_DATABASE_URL: 'postgres://baton@127.0.0.1:1/baton' },
      input: JSON.stringify({
        hook_event_name: 'SessionStart',
        session_id: 's2',
        cwd: repo,
        source: 'startup',
      }),
    });
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('Baton could not load');
    // the user is told what is lost: nothing
    expect((JSON.parse(down.stdout) as { systemMessage: string }).systemMessage).toMatch(
      /^Baton: the SessionStart hook failed: cannot reach PostgreSQL .+; nothing is lost: the briefing comes with the next prompt once it answers again\. Run `baton doctor`/,
    );
    const stopDown = await runCli(['hook', 'Stop'], {
      cwd: repo,
      env: { ...env, BATON_DATABASE_URL: 'postgres://baton@127.0.0.1:1/baton' },
      input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's2', cwd: repo }),
    });
    // the same outage: said once, at its first hook; this one says it in its note (doctor) only
    expect(stopDown.stdout).toBe('');
    expect(stopDown.stderr).toMatch(
      /Stop: cannot reach PostgreSQL .+; nothing is lost: the session's transcript is read once it answers again/,
    );
    // the store answers again: the first prompt brings the briefing, and says why
    const back = await hook('UserPromptSubmit', { session_id: 's2', cwd: repo, prompt: 'go on' });
    const out = JSON.parse(back.stdout) as {
      systemMessage: string;
      hookSpecificOutput: { additionalContext: string };
    };
    expect(out.hookSpecificOutput.additionalContext).toContain('T1 Write the CSV exporter');
    expect(out.systemMessage).toMatch(
      /^Baton reaches its store again \(its hooks here could not since .+ UTC\)\. This session's start failed \(.+\), so its briefing is given now$/,
    );
    // once
    const next = await hook('UserPromptSubmit', { session_id: 's2', cwd: repo, prompt: 'and the tests' });
    expect(next.stdout).toBe('');
  });
});

describe('a session whose start could not reach the store and that worked on while it was out of reach', () => {
  it('is briefed at its first prompt back with what its own turns did meanwhile, read from its transcript first', async () => {
    const { repo, env, hook, baton } = workspace();
    const todos = (...statuses: string[]) => ({
      todos: ['Write the CSV exporter', 'Test the exporter'].map((content, i) => ({
        content,
        status: statuses[i],
        activeForm: content,
      })),
    });
    await hook('SessionStart', { session_id: 's1', cwd: repo, source: 'startup' });
    await hook('UserPromptSubmit', { session_id: 's1', cwd: repo, prompt: 'Write the CSV exporter' });
    await hook('PostToolUse', {
      session_id: 's1',
      cwd: repo,
      tool_name: 'TodoWrite',
      tool_use_id: 'toolu_1',
      tool_input: todos('in_progress', 'pending'),
      tool_response: {},
    });
    // the next conversation starts while the store is out of reach, and works on: its hooks fail, its transcript grows
    const transcript = join(tempDir('baton-project-'), 's2.jsonl');
    const down = (event: string, fields: Record<string, unknown>) =>
      runCli(['hook', event], {
        cwd: repo,
        env: { ...env, BATON_DATABASE_URL: 'postgres://baton@127.0.0.1:1/baton' },
        input: JSON.stringify({
          hook_event_name: event,
          session_id: 's2',
          cwd: repo,
          transcript_path: transcript,
          ...fields,
        }),
      });
    expect((await down('SessionStart', { source: 'startup' })).stdout).toContain('Baton could not load');
    const asked = (text: string) =>
      JSON.stringify({
        type: 'user',
        sessionId: 's2',
        message: { role: 'user', content: text },
        timestamp: new Date().toISOString(),
      });
    writeFileSync(
      transcript,
      `${[
        asked('finish the exporter'),
        ...claudeTool('toolu_2', 'TodoWrite', todos('completed', 'in_progress'), 'Todos have been modified'),
      ].join('\n')}\n`,
    );
    expect((await down('Stop', {})).code).toBe(0);
    appendFileSync(transcript, `${asked('now the docs')}\n`);
    // the store answers again: the briefing of the first prompt back has the exporter written, as the conversation did
    const back = await hook('UserPromptSubmit', {
      session_id: 's2',
      cwd: repo,
      transcript_path: transcript,
      prompt: 'now the docs',
    });
    expect(back.code, back.stderr).toBe(0);
    const context = contextOf(back.stdout);
    expect(context).toContain('[x] T1 Write the CSV exporter');
    expect(context).toContain('[~] T2 Test the exporter');
    expect(back.stderr).toMatch(
      /: the store answers again: no other transcript here had grown since its last import; request recorded; read the transcript of this session first: imported 4 new transcript entries \(0 decisions, 0 errors\); tasks: 1 started, 1 completed;/,
    );
    // each prompt once, the hook's sighting paired with the transcript's, and the turn's Stop reads on from there
    const stop = await hook('Stop', { session_id: 's2', cwd: repo, transcript_path: transcript });
    expect(stop.stderr).toContain('Stop: nothing new in the transcript');
    const s = (await baton(['details', 'requests', '--json'])).json<{ text: string }[]>();
    expect(s.map((r) => r.text)).toEqual(['Write the CSV exporter', 'finish the exporter', 'now the docs']);
  });
});

describe('a pause that outlived its timeout', () => {
  it('is told to the user by the hook that forced it, once; the next prompt resumes the workflow', async () => {
    const { repo, hook, baton } = workspace();
    const base = { session_id: 's1', cwd: repo };
    await hook('SessionStart', { ...base, source: 'startup' });
    await hook('UserPromptSubmit', { ...base, prompt: 'Write the CSV exporter' });
    expect((await baton(['task', 'add', 'T1:Write the CSV exporter'])).code).toBe(0);
    expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
    const asked = await baton(['pause', '--reason', 'end of day', '--pause-timeout', '1s']);
    expect(asked.code).toBe(0);
    await new Promise((r) => setTimeout(r, 1200));
    // the agent is still at work: its next task-list call finds the pause overdue and forces it
    const todos = [{ content: 'Write the CSV exporter', activeForm: 'Writing it', status: 'in_progress' }];
    const r = await hook('PostToolUse', { ...base, tool_name: 'TodoWrite', tool_input: { todos } });
    expect((JSON.parse(r.stdout) as { systemMessage: string }).systemMessage).toMatch(
      /^Baton paused workflow wf-\S+ \("end of day"\): the pause you asked for waited its timeout for the task under way, which did not end\. The agent may still be at work; your next prompt resumes the workflow$/,
    );
    expect((await baton(['status', '--json'])).json<Status>().workflow.status).toBe('paused');
    // said once: the pause is not forced again
    const again = await hook('PostToolUse', { ...base, tool_name: 'TodoWrite', tool_input: { todos } });
    expect(again.stdout).not.toContain('waited its timeout');
    const back = await hook('UserPromptSubmit', { ...base, prompt: 'go on' });
    expect((JSON.parse(back.stdout) as { systemMessage: string }).systemMessage).toMatch(
      /^Baton resumed workflow/,
    );
  });
});

describe("Claude Code's SessionEnd budget", () => {
  it('a SessionEnd that runs out of the budget its variable sets says so, and doctor says how to give it more', async () => {
    const { repo, env, baton } = workspace();
    // a session with a transcript to read, as Claude Code's always has
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    copyFileSync(corpusPath('claude-code/spotter/short.jsonl'), transcript);
    const r = await runCli(['hook', 'SessionEnd'], {
      cwd: repo,
      env: { ...env, CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '1' },
      input: JSON.stringify({
        hook_event_name: 'SessionEnd',
        session_id: 's1',
        cwd: repo,
        reason: 'other',
        transcript_path: transcript,
      }),
    });
    expect(r.code).toBe(0);
    const doctor = (await baton(['doctor', '--json'])).json<Status>();
    expect(doctor.last_hooks).toContainEqual(
      expect.objectContaining({
        event: 'SessionEnd',
        outcome: 'timeout',
        note: 'no answer within 0.001 s (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS is 1); what it did so far is kept',
      }),
    );
    expect(doctor.problems.join('\n')).toContain(
      'Give SessionEnd hooks more time: set CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS=30000 in the environment Claude Code starts from',
    );
  });
});

describe('a compaction whose start hook came first', () => {
  it('does not inject the context a second time at the next prompt', async () => {
    const { repo, hook, baton } = workspace();
    const base = { session_id: 's1', cwd: repo };
    await hook('SessionStart', { ...base, source: 'startup' });
    await hook('UserPromptSubmit', { ...base, prompt: 'Write the parser' });
    await baton(['task', 'add', 'A:Parser']);
    await hook('PreCompact', { ...base, trigger: 'auto' });
    const start = await hook('SessionStart', { ...base, source: 'compact' });
    expect(contextOf(start.stdout)).toContain('Write the parser');
    // the conversation goes on: no session ended at the compaction
    expect(contextOf(start.stdout)).toContain(
      "The last snapshot was taken at a context compaction (auto), which ends no session: the work went on from the agent's summary.",
    );
    expect(contextOf(start.stdout)).not.toMatch(/ended because: exhaustion/);
    const post = await hook('PostCompact', { ...base, trigger: 'auto', compact_summary: 'Parser begun.' });
    expect(post.stderr).toMatch(/the compacted session already got the context/);
    const next = await hook('UserPromptSubmit', { ...base, prompt: 'go on' });
    expect(next).toMatchObject({ code: 0, stdout: '' });

    // the other order: PostCompact first, then the compact start injects once
    await hook('PreCompact', { ...base, trigger: 'manual' });
    expect((await hook('PostCompact', { ...base, trigger: 'manual' })).stderr).toMatch(
      /the next prompt or session start injects/,
    );
    await baton(['task', 'add', 'B:Its tests']);
    expect(contextOf((await hook('SessionStart', { ...base, source: 'compact' })).stdout)).toContain(
      'Write the parser',
    );
    // the snapshot of that start says what happened: the same conversation compacted, no new session
    const snaps = (await baton(['snapshots', '--json'])).json<{ snapshots: { pause_reason: string }[] }>();
    expect(snaps.snapshots.at(-1)?.pause_reason).toBe('Claude Code compacted its context');
    expect((await hook('UserPromptSubmit', { ...base, prompt: 'and on' })).stdout).toBe('');
  });
});

describe('input a shell or an agent mangles', () => {
  it("reads a payload behind a byte-order mark (a Windows shell's pipe adds one)", async () => {
    const { repo, hook, requests } = workspace();
    const r = await hook(
      'UserPromptSubmit',
      `\uFEFF${JSON.stringify({ session_id: 's1', cwd: repo, prompt: 'with a BOM' })}`,
    );
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(await requests()).toEqual(['with a BOM']);
  });

  it('does nothing for a hook line that names an unknown agent, and says so to the user and in doctor', async () => {
    const { repo, env, baton } = workspace();
    const r = await runCli(['hook', 'Stop', '--agent', 'gemini'], {
      cwd: repo,
      env,
      input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', cwd: repo }),
    });
    expect(r.code).toBe(0);
    const note =
      'unknown agent "gemini" (--agent takes claude-code or codex; `baton init` writes the hook lines)';
    expect(r.stderr).toContain(`baton: Stop: ${note}`);
    expect(JSON.parse(r.stdout)).toEqual({
      systemMessage: `Baton: the Stop hook failed: ${note}. Run \`baton doctor\` in this repository.`,
    });
    expect((await baton(['list', '--json'])).json<{ workflows: unknown[] }>().workflows).toEqual([]);
    expect((await baton(['doctor'])).stdout).toContain(note);
  });
});

describe('baton doctor when the store cannot be opened', () => {
  it('reports it as a problem with what to do, instead of failing like the hook it is asked about', async () => {
    const { repo, baton } = workspace();
    const more = { BATON_DATABASE_URL: join(repo, 'README.md', 'cannot', 'be.db') };
    const r = await baton(['doctor'], more);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /problem: cannot open the SQLite database .*README\.md\/cannot\/be\.db: .*point BATON_HOME \(or --home, or BATON_DATABASE_URL\) at one you can write/,
    );
    const json = (await baton(['doctor', '--json'], more)).json<Status>();
    expect(json).toMatchObject({ ok: false, workflows: [] });
  });
});

describe('hooks of one worktree at once', () => {
  it('make one workflow and import a transcript once (three Stops racing on a fresh repository)', async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), '258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    writeFileSync(
      transcript,
      readFileSync(corpusPath('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl')),
    );
    const payload = {
      session_id: '258c7280-ae70-4798-800f-63464d01a85d',
      cwd: repo,
      transcript_path: transcript,
    };
    const runs = await Promise.all([1, 2, 3].map(() => hook('Stop', payload)));
    for (const r of runs) expect(r).toMatchObject({ code: 0, stdout: '' });
    const list = (await baton(['list', '--json'])).json<{ workflows: { status: string }[] }>();
    // a workflow created at the same moment by another hook abandons itself (cancelled) for the first one
    expect(list.workflows.filter((w) => w.status !== 'cancelled')).toHaveLength(1);
    // what one import alone records, in another repository
    const alone = workspace();
    await alone.hook('Stop', { ...payload, cwd: alone.repo });
    const counts = async (b: typeof baton) => {
      const c = (await b(['status', '--json'])).json<Status>().counts as Record<string, unknown>;
      return { decisions: c.decisions, errors: c.errors, history: c.history, test_runs: c.test_runs };
    };
    expect(await counts(baton)).toEqual(await counts(alone.baton));
  });
});

describe("Stop's last_assistant_message", () => {
  it("is the agent's last state where no transcript is read (Codex's transcript_path null), kept once", async () => {
    const { repo, hook, baton } = workspace();
    // Codex's Stop input: every field required, transcript_path null when the session keeps no rollout
    const base = {
      session_id: '019e1625-789d-76c0-80ab-3724b5ddb799',
      turn_id: 't1',
      cwd: repo,
      model: 'gpt-5.5',
      permission_mode: 'default',
      transcript_path: null,
    };
    await hook('UserPromptSubmit', { ...base, prompt: 'Add a retry to the uploader' });
    const stop = {
      ...base,
      stop_hook_active: false,
      last_assistant_message: 'Added the retry; 12 tests pass.',
    };
    const first = await hook('Stop', stop);
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(first.stderr).toMatch(/no transcript path; the agent's last message kept/);
    expect((await hook('Stop', stop)).stderr).not.toMatch(/last message kept/);
    const context = (await baton(['context'])).stdout;
    expect(context).toMatch(
      /### Last State \(the agent's last message[^)]*\)\nAdded the retry; 12 tests pass\./,
    );
  });

  it("of a session Baton never saw, naming no transcript, is not followed: the workflow stays its conversation's", async () => {
    const { repo, hook, baton } = workspace();
    const base = {
      turn_id: 't1',
      cwd: repo,
      model: 'gpt-5.5',
      permission_mode: 'default',
      transcript_path: null,
    };
    const own = { ...base, session_id: '019e1625-0000-7000-8000-00000000aaaa' };
    await hook('UserPromptSubmit', { ...own, prompt: 'Add a retry to the uploader' });
    await hook('Stop', { ...own, stop_hook_active: false, last_assistant_message: 'Added the retry.' });
    // another session's Stop (a one-off `codex exec` here) that no hook of it came before, with no rollout
    const stray = { ...base, session_id: '019e2000-0000-7000-8000-00000000dddd' };
    const r = await hook('Stop', { ...stray, stop_hook_active: false, last_assistant_message: 'hello' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(
      /no workflow follows Codex session 019e2000-0000-7000-8000-00000000dddd, and its hook names no transcript that can be read: not followed/,
    );
    const context = (await baton(['context'])).stdout;
    expect(context).toMatch(/### Last State \(the agent's last message[^)]*\)\nAdded the retry\./);
    expect(context).not.toContain('hello');
    const status = (await baton(['status', '--json'])).json<{ workflow: { session_count: number } }>();
    expect(status.workflow.session_count).toBe(1);
    // its SessionEnd ties nothing either
    expect((await hook('SessionEnd', { ...stray, reason: 'other' })).stderr).toMatch(/not followed/);
    // nor does one naming a transcript that is not there (nothing of it can be read either)
    const gone = {
      ...base,
      session_id: '019e2000-0000-7000-8000-00000000eeee',
      transcript_path: join(repo, 'no-such-rollout.jsonl'),
    };
    const none = await hook('Stop', { ...gone, stop_hook_active: false, last_assistant_message: 'hi' });
    expect(none.stderr).toMatch(/its hook names no transcript that can be read: not followed/);
    expect(
      (await baton(['status', '--json'])).json<{ workflow: { session_count: number } }>().workflow
        .session_count,
    ).toBe(1);
  });

  it('after a prompt, is never the cheap answer: the end of that turn is recorded though nothing looks new', async () => {
    const { repo, hook, status } = workspace();
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    copyFileSync(corpusPath('claude-code/spotter/short.jsonl'), transcript);
    const base = { session_id: 'S1', cwd: repo, transcript_path: transcript };
    const stop = { ...base, last_assistant_message: 'Done.' };
    await hook('Stop', stop);
    // the next prompt, and a Stop that comes before the turn's lines reach the transcript, with the same words
    await hook('UserPromptSubmit', { ...base, prompt: 'and once more' });
    const before = (await status()).workflow.version;
    const again = await hook('Stop', stop);
    expect(again.stderr).not.toMatch(/nothing new in the transcript since the last import/);
    expect((await status()).workflow.version).toBeGreaterThan(before);
    // the event log's plain copy beside the work
    const runs = join(repo, '.baton', 'runs');
    const lines = readdirSync(runs, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(join(runs, f), 'utf8').split('\n').filter(Boolean));
    expect(lines.filter((l) => (JSON.parse(l) as { type: string }).type === 'turn.ended')).toHaveLength(2);
    // with no prompt since, the same Stop again is the cheap answer
    expect((await hook('Stop', stop)).stderr).toMatch(/nothing new in the transcript since the last import/);
  });
});

describe('a turn that ends on an API error (StopFailure)', () => {
  it('keeps what the turn did and marks where the work was cut, with why', async () => {
    const { repo, hook, baton } = workspace();
    await hook('SessionStart', { session_id: 's1', cwd: repo, source: 'startup' });
    await hook('UserPromptSubmit', { session_id: 's1', cwd: repo, prompt: 'Build the CSV exporter' });
    // older versions name the kind `error` and the words `error_details`
    const r = await hook('StopFailure', {
      session_id: 's1',
      cwd: repo,
      error: 'server_error',
      error_details: 'API Error: 529 Overloaded',
      last_assistant_message: 'Half-way: the parser is done, the writer is next.',
    });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain('the turn ended on an API error (server_error: API Error: 529 Overloaded)');
    expect(r.stderr).not.toContain('usage limit');
    // its snapshot is the error's own (trigger api_error), not taken for a pause the user asked for
    expect((await baton(['status'])).stdout).toMatch(
      /^snap-\S+ +- +1 +api_error +0\/0 +\S+ +the turn ended on an API error \(server_error/m,
    );
    // the next session is told where the last one was cut, and what it had done
    const next = await hook('SessionStart', { session_id: 's2', cwd: repo, source: 'startup' });
    const context = contextOf(next.stdout);
    expect(context).toContain('Half-way: the parser is done, the writer is next.');
    expect(context).toContain(
      'The previous session ended because: the turn ended on an API error (server_error',
    );
  });

  it("that filled the agent's context tells the next session so, and to do that step in smaller parts: not to retry it", async () => {
    const { repo, hook } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    const ask = 'Load the whole dump and summarise it';
    await hook('SessionStart', { ...base, source: 'startup' });
    await hook('UserPromptSubmit', { ...base, prompt: ask });
    // the turn, then the message Claude Code writes in the agent's place when the request no longer fits its context
    const at = (s: number) => new Date(Date.now() + s * 1000);
    const tooLong = JSON.stringify({
      type: 'assistant',
      sessionId: 's1',
      timestamp: at(2).toISOString(),
      isApiErrorMessage: true,
      error: 'invalid_request',
      message: {
        id: 'e1',
        model: '<synthetic>',
        role: 'assistant',
        content: [{ type: 'text', text: 'Prompt is too long' }],
      },
    });
    writeFileSync(
      transcript,
      [line.user(ask, at(0)), line.said('Loading the whole dump.', at(1)), tooLong].join('\n') + '\n',
    );
    const r = await hook('StopFailure', {
      ...base,
      error: 'invalid_request',
      last_assistant_message: 'Prompt is too long',
    });
    expect(r.code).toBe(0);
    const context = contextOf(
      (await hook('SessionStart', { session_id: 's2', cwd: repo, source: 'clear' })).stdout,
    );
    // the notice StopFailure gives as the last message is not the agent's: its last words stay its own
    expect(context).toMatch(/### Last State \(the agent's last message[^)]*\)\nLoading the whole dump\./);
    const next = nextOf(context);
    expect(next).toContain(
      "The previous session ended because: the agent's context filled up on the last turn (Prompt is too long), so this session goes on from the compiled context: do the step that turn was on in smaller parts (read or print less at once), not again as it was.",
    );
    expect(next).not.toContain('retry it');
  });
});

/** Claude Code's transcript lines: the user's words, the agent's, and the message it writes in their place on an error. */
const line = {
  user: (text: string, at = new Date()) =>
    JSON.stringify({
      type: 'user',
      sessionId: 's1',
      timestamp: at.toISOString(),
      message: { role: 'user', content: text },
    }),
  said: (text: string, at = new Date()) =>
    JSON.stringify({
      type: 'assistant',
      sessionId: 's1',
      timestamp: at.toISOString(),
      message: { id: `m${at.getTime()}`, role: 'assistant', content: [{ type: 'text', text }] },
    }),
  limit: (text: string, at = new Date()) =>
    JSON.stringify({
      type: 'assistant',
      sessionId: 's1',
      timestamp: at.toISOString(),
      isApiErrorMessage: true,
      error: 'rate_limit',
      apiErrorStatus: 429,
      message: {
        id: `e${at.getTime()}`,
        model: '<synthetic>',
        role: 'assistant',
        content: [{ type: 'text', text }],
      },
    }),
};
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
/** The reset the hook's note gives: as the notice said it, and the instant in UTC. */
/**
 * A usage limit's notice as Claude Code words it, resetting three hours from now in Bogota (UTC-5 all year): a fixed
 * clock time would pass between the hook and the context whenever the suite ran at that very minute. `utc` is the
 * reset's HH:MM in UTC.
 */
function limitNotice() {
  const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 3_600_000);
  const bogota = new Date(reset.getTime() - 5 * 3_600_000);
  const h = bogota.getUTCHours();
  const clock = `${h % 12 || 12}:${String(bogota.getUTCMinutes()).padStart(2, '0')}${h < 12 ? 'am' : 'pm'}`;
  return {
    notice: `You've hit your session limit · resets ${clock} (America/Bogota)`,
    clock,
    utc: reset.toISOString().slice(11, 16),
  };
}

const resetIn = (note: string) =>
  /stopped by a usage limit of (?:Claude Code|Codex)(?:, session \d+)?, resets at (.+?);/.exec(note)?.[1] ??
  '';
/** An instant as the notes say it, to the second when it has seconds (never after it): "2026-11-30 14:00:07 UTC". */
const utc = (iso: string) => {
  const t = Math.floor(Date.parse(iso) / 1000) * 1000;
  return `${new Date(t)
    .toISOString()
    .slice(0, t % 60_000 ? 19 : 16)
    .replace('T', ' ')} UTC`;
};
/** What to Do Next, as the briefing says it. */
const nextOf = (context: string) => /### What to Do Next\n([^\n]+)/.exec(context)?.[1] ?? '';

describe('the context fill after a compaction', () => {
  it('is said stale by `baton status` until a turn after the compaction reads it again', async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const said = (text: string, read: number, at: Date) =>
      JSON.stringify({
        type: 'assistant',
        sessionId: 's1',
        timestamp: at.toISOString(),
        message: {
          id: `m${at.getTime()}`,
          model: 'claude-opus-4-6',
          role: 'assistant',
          content: [{ type: 'text', text }],
          usage: {
            input_tokens: 1,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: read,
            output_tokens: 9,
          },
        },
      });
    writeFileSync(
      transcript,
      `${[line.user('Build the CSV exporter', minutesAgo(3)), said('The parser is done.', 118_833, minutesAgo(2))].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('UserPromptSubmit', { ...base, prompt: 'Build the CSV exporter' });
    await hook('Stop', { ...base, stop_hook_active: false });
    expect((await baton(['status'])).stdout).toMatch(/; context now 118,834 of 200,000 \(59%\)$/m);
    await hook('PreCompact', { ...base, trigger: 'auto' });
    await hook('SessionStart', { ...base, source: 'compact' });
    const compacted = (await baton(['status'])).stdout;
    expect(compacted).not.toContain('context now');
    expect(compacted).toMatch(/; context compacted at \d\d:\d\d; the fill is read again at the next turn$/m);
    expect(
      (await baton(['status', '--json'])).json<{ context_compacted_at: string | null }>()
        .context_compacted_at,
    ).not.toBeNull();
    // the next turn reads the compacted context's fill
    appendFileSync(transcript, `${said('The writer is next.', 20_000, new Date())}\n`);
    await hook('Stop', { ...base, stop_hook_active: false });
    expect((await baton(['status'])).stdout).toMatch(/; context now 20,001 of 200,000 \(10%\)$/m);
  });
});

describe('a turn a usage limit stopped', () => {
  it('keeps the next step and the last state in a briefing cut to a few characters, and says it was cut in words for the agent', async () => {
    const repo = makeRepo();
    const env = {
      BATON_HOME: tempDir('baton-home-'),
      HOME: tempDir('baton-user-'),
      BATON_INJECT_MAX_CHARS: '1500',
    };
    const hook = (event: string, payload: Record<string, unknown>) =>
      runCli(['hook', event], {
        cwd: repo,
        env,
        input: JSON.stringify({ hook_event_name: event, ...payload }),
      });
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const ask =
      'Build the CSV exporter for the reports page, with quoting of commas and newlines, a header row, and a streaming writer for large tables';
    const { notice } = limitNotice();
    // a list of eight steps, four commits and a dozen files: more than 1,500 characters hold at their shortest
    const todos = Array.from({ length: 8 }, (_, i) => ({
      content: `Step ${i} of the exporter: write the part and its tests`,
      activeForm: `Doing step ${i}`,
      status: i < 3 ? 'completed' : i === 3 ? 'in_progress' : 'pending',
    }));
    const calls = [
      ...Array.from({ length: 12 }, (_, i) =>
        claudeTool(
          `w${i}`,
          'Write',
          { file_path: join(repo, `src/exporter/part-${i}.ts`), content: 'x' },
          'File created successfully',
        ),
      ),
      claudeTool('td', 'TodoWrite', { todos }, 'Todos have been modified successfully'),
      ...Array.from({ length: 4 }, (_, i) =>
        claudeTool(
          `c${i}`,
          'Bash',
          { command: `git commit -am "exporter: part ${i} with its tests and the docs"` },
          `[main abc12${i}f] exporter: part ${i} with its tests and the docs\n 2 files changed, 40 insertions(+)`,
        ),
      ),
    ].flat();
    const last = 'Half-way: the parser is done and its tests pass; the writer is next.';
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('UserPromptSubmit', { ...base, prompt: ask });
    // the agent's words come after the prompt's hook ran, as Claude Code writes them: said in the turn the limit cut
    writeFileSync(
      transcript,
      `${[line.user(ask, minutesAgo(10)), ...calls, line.said(last), line.limit(notice)].join('\n')}\n`,
    );
    await hook('StopFailure', { ...base, error: 'rate_limit', last_assistant_message: notice });
    const start = await hook('SessionStart', { ...base, session_id: 's2', source: 'resume' });
    expect(start.stderr).toMatch(/cut to fit/);
    // resumed before the limit resets: the user is told the agent may stop again at once
    expect((JSON.parse(start.stdout) as { systemMessage?: string }).systemMessage).toMatch(
      /^Baton: the work was stopped by a usage limit of Claude Code, session 1, resets at .+; until then the agent may stop again at once$/,
    );
    const context = contextOf(start.stdout);
    expect(context.length).toBeLessThanOrEqual(1500);
    // what to do next and what the agent was doing are kept; the file counts and the commits (\`baton context\`) go
    expect(nextOf(context)).toMatch(
      /^Continue from task "T4: .+ The previous session ended because: stopped by a usage limit of Claude Code, session 1, resets at /,
    );
    expect(context).toContain(`### Last State (the agent's last message`);
    expect(context).toContain(last);
    expect(context).not.toContain('files created, edited or deleted');
    // said once, at the top, in words meant for the agent
    expect(context).toMatch(
      /^## Session Resume Context \(session 2 of 2\)\n\n\(briefing cut to fit 1500 characters: run `baton context` for the whole\)\n\n### /m,
    );
    expect(context.match(/briefing cut/g)).toHaveLength(1);
    expect(context).not.toContain('over_budget');
  });

  it('is why the session stopped, with the reset the notice gives, said once; over once the agent works again', async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const { notice, clock, utc: at } = limitNotice();
    writeFileSync(
      transcript,
      `${[
        line.user('Build the CSV exporter', minutesAgo(3)),
        line.said('Half-way: the parser is done, the writer is next.', minutesAgo(2)),
        line.limit(notice),
      ].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('UserPromptSubmit', { ...base, prompt: 'Build the CSV exporter' });
    // Claude Code 2.1.78 and later: the kind, and the notice as the turn's last message (no details)
    const before = Date.now();
    const r = await hook('StopFailure', { ...base, error: 'rate_limit', last_assistant_message: notice });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    // as the notice said it (the way the user read it), then the instant: Bogota is UTC-5 all year, and the instant is
    // the next one after the notice
    const reset = resetIn(r.stderr);
    expect(reset).toMatch(
      new RegExp(`^${clock} \\(America/Bogota\\), which is \\d{4}-\\d\\d-\\d\\d ${at} UTC$`),
    );
    const instant = Date.parse(`${reset.slice(-20, -4).replace(' ', 'T')}:00Z`);
    expect(instant).toBeGreaterThan(before - 60_000);
    expect(instant).toBeLessThanOrEqual(before + 24 * 3600_000);

    // `baton status` says it too, until the agent speaks or the user asks again
    const limited = (await baton(['status', '--json'])).json<{
      usage_limit: string | null;
      snapshots: { trigger: string; pause_reason: string | null }[];
    }>();
    expect(limited.usage_limit).toBe(
      `stopped by a usage limit of Claude Code, session 1, resets at ${reset}`,
    );
    const shown = (await baton(['status'])).stdout;
    expect(shown).toContain(`agent: stopped by a usage limit of Claude Code, session 1, resets at ${reset}`);
    // its snapshot is the limit's own (trigger usage_limit), not taken for a pause the user asked for, in the table
    // and in --json alike; the reason says the limit once, and no "(usage_limit)" is added to the status
    expect(shown).toMatch(
      /^snap-\S+ +- +1 +usage_limit +0\/0 +\S+ +stopped by a usage limit of Claude Code, session 1,/m,
    );
    expect(shown).not.toMatch(/\bpause\b|\(usage_limit\)/);
    expect(limited).toMatchObject({
      snapshots: [
        {
          trigger: 'usage_limit',
          pause_reason: `stopped by a usage limit of Claude Code, session 1, resets at ${reset}`,
        },
      ],
    });

    const start = await hook('SessionStart', { ...base, session_id: 's2', source: 'resume' });
    const context = contextOf(start.stdout);
    // the agent's last message is the last state; the limit is said once, as why the session stopped
    expect(context).toMatch(
      /### Last State \(the agent's last message[^)]*\)\nHalf-way: the parser is done, the writer is next\./,
    );
    // the limit cut the turn off: no reply, the request is still to be done (the prompt's hook ran after the times the
    // transcript gives the agent's words, so none of them is recorded as said since it)
    expect(nextOf(context)).toBe(
      `No task is recorded, and the agent's turn on the user's latest request (Goal) was cut off before it said anything (by what: why the previous session ended, said next): go on with that request, first checking what of it already ran. The previous session ended because: stopped by a usage limit of Claude Code, session 1, resets at ${reset}.`,
    );
    expect(context.match(/usage limit/g)).toHaveLength(1);
    expect(context).not.toContain(notice);
    expect(context).not.toContain('UNRESOLVED');
    expect(context).toContain('### Errors Encountered: none');

    // the next session works: the limit is over
    appendFileSync(
      transcript,
      `${[line.user('go on'), line.said('The writer is done too; 14 tests pass.')].join('\n')}\n`,
    );
    await hook('UserPromptSubmit', { ...base, session_id: 's2', prompt: 'go on' });
    await hook('Stop', {
      ...base,
      session_id: 's2',
      last_assistant_message: 'The writer is done too; 14 tests pass.',
    });
    const after = (await baton(['context'])).stdout;
    expect(after).not.toContain('usage limit');
    expect((await baton(['status', '--json'])).json<{ usage_limit: string | null }>().usage_limit).toBeNull();
    // nor is its snapshot given as why a session ended: the user asked again since (not a pause either)
    expect(after).not.toContain('ended because');
    expect(after).toContain('The writer is done too; 14 tests pass.');
  });

  it('is said to the user when a new conversation goes on with the work before the reset', async () => {
    const { repo, hook } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const { notice } = limitNotice();
    writeFileSync(
      transcript,
      `${[
        line.user('Build the CSV exporter', minutesAgo(9)),
        line.said('Half-way: the parser is done, the writer is next.', minutesAgo(8)),
        line.limit(notice, minutesAgo(7)),
      ].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('UserPromptSubmit', { ...base, prompt: 'Build the CSV exporter' });
    const r = await hook('StopFailure', { ...base, error: 'rate_limit', last_assistant_message: notice });
    const reset = resetIn(r.stderr);
    expect(reset).not.toBe('');
    // the terminal was closed (no SessionEnd); the user opens a new conversation
    const past = minutesAgo(5);
    utimesSync(transcript, past, past);
    const start = await hook('SessionStart', { session_id: 's2', cwd: repo, source: 'startup' });
    expect((JSON.parse(start.stdout) as { systemMessage: string }).systemMessage).toMatch(
      new RegExp(
        `^Baton continues workflow \\S+ "Build the CSV exporter" in this conversation \\(session 2\\); the work was stopped by a usage limit of Claude Code, session 1, resets at ${reset.replace(/[()]/g, '\\$&')}; `,
      ),
    );
  });

  it('is over once the user asks again, unless the limit stops that turn too (asked before the reset)', async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const notice = `Claude AI usage limit reached|${Math.floor(Date.now() / 1000) + 3 * 3600}`;
    writeFileSync(
      transcript,
      `${[line.user('Build the CSV exporter', minutesAgo(3)), line.said('Parser done.', minutesAgo(2)), line.limit(notice, minutesAgo(1))].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('UserPromptSubmit', { ...base, prompt: 'Build the CSV exporter' });
    await hook('StopFailure', { ...base, error: 'rate_limit', last_assistant_message: notice });
    const limit = async () =>
      (await baton(['status', '--json'])).json<{ usage_limit: string | null }>().usage_limit;
    expect(await limit()).toMatch(/^stopped by a usage limit/);
    // the user types "continue" before the reset: Claude Code answers with the same notice, and the limit stands
    appendFileSync(transcript, `${line.user('continue')}\n`);
    await hook('UserPromptSubmit', { ...base, prompt: 'continue' });
    expect(await limit()).toBeNull();
    appendFileSync(transcript, `${line.limit(notice)}\n`);
    await hook('StopFailure', { ...base, error: 'rate_limit', last_assistant_message: notice });
    expect(await limit()).toMatch(/^stopped by a usage limit/);
    const start = await hook('SessionStart', { ...base, session_id: 's2', source: 'startup' });
    expect(nextOf(contextOf(start.stdout))).toMatch(
      /The previous session ended because: stopped by a usage limit/,
    );
    expect(start.stdout).not.toMatch(/stopped in the middle/);
  });

  it("with only the Stop hook (Claude Code before StopFailure), reads the notice's epoch exactly and says it", async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const epoch = Math.floor(Date.now() / 1000) + 3 * 3600;
    const notice = `Claude AI usage limit reached|${epoch}`;
    // the first turn answered; the limit cut the second before the agent said anything
    writeFileSync(
      transcript,
      `${[
        line.user('Add a CSV export', minutesAgo(10)),
        line.said('The export is in: `baton export --csv`.', minutesAgo(9)),
        line.user('Now add a JSON one', minutesAgo(1)),
        line.limit(notice),
      ].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    const r = await hook('Stop', { ...base, stop_hook_active: false, last_assistant_message: notice });
    const reset = utc(new Date(epoch * 1000).toISOString());
    expect(r.stderr).toContain(
      `stopped by a usage limit of Claude Code, session 1, resets at ${reset}; snapshot snap-`,
    );
    expect(r.stderr).toContain('(0 decisions, 0 errors)');
    const start = await hook('SessionStart', { ...base, session_id: 's2', source: 'startup' });
    const context = contextOf(start.stdout);
    expect(context).toMatch(/### Last State \(the agent's last message[^)]*\)\nThe export is in/);
    expect(nextOf(context)).toContain(
      `The previous session ended because: stopped by a usage limit of Claude Code, session 1, resets at ${reset}.`,
    );
    expect(context).not.toContain(notice);
    expect(context).not.toMatch(/UNRESOLVED|\(while: /);
    // the notice is kept whole where the details are
    const snap = /`baton details (snap-\S+) </.exec((await baton(['context'])).stdout)?.[1] ?? '';
    const summaries = JSON.parse((await baton(['details', snap, 'summaries', '--json'])).stdout) as {
      kind: string;
      text: string;
    }[];
    expect(summaries.filter((x) => x.kind === 'usage_limit').map((x) => x.text)).toEqual([notice]);
  });

  it('read only at the next session start (no Stop or StopFailure came for it), pauses there as StopFailure does', async () => {
    const { repo, hook, baton } = workspace();
    const transcript = join(tempDir('baton-tr-'), 's1.jsonl');
    const epoch = Math.floor(Date.now() / 1000) + 3 * 3600;
    const notice = `Claude AI usage limit reached|${epoch}`;
    writeFileSync(
      transcript,
      `${[line.user('Add a CSV export', minutesAgo(10)), line.said('The export is in.', minutesAgo(9))].join('\n')}\n`,
    );
    const base = { session_id: 's1', cwd: repo, transcript_path: transcript };
    await hook('UserPromptSubmit', { ...base, prompt: 'Add a CSV export' });
    await hook('Stop', { ...base, stop_hook_active: false, last_assistant_message: 'The export is in.' });
    // the second turn ends on the limit, and the terminal is closed before its StopFailure reaches Baton
    await hook('UserPromptSubmit', { ...base, prompt: 'Now add a JSON one' });
    appendFileSync(
      transcript,
      `${[line.user('Now add a JSON one', minutesAgo(1)), line.limit(notice)].join('\n')}\n`,
    );
    const start = await hook('SessionStart', { ...base, session_id: 's2', source: 'startup' });
    const reset = utc(new Date(epoch * 1000).toISOString());
    expect(start.stderr).toContain(
      `stopped by a usage limit of Claude Code, resets at ${reset}; snapshot snap-`,
    );
    const snapshots = (await baton(['snapshots', '--json'])).json<{
      snapshots: { trigger: string; pause_reason: string | null }[];
    }>().snapshots;
    expect(snapshots.filter((s) => s.trigger === 'usage_limit')).toEqual([
      expect.objectContaining({
        pause_reason: `stopped by a usage limit of Claude Code, resets at ${reset}`,
      }),
    ]);
    const context = contextOf(start.stdout);
    expect(nextOf(context)).toContain(
      `The previous session ended because: stopped by a usage limit of Claude Code, session 1, resets at ${reset}.`,
    );
    expect(context).not.toMatch(/stopped in the middle|UNRESOLVED/);
  });

  it("reads Codex's notice from its rollout, its clock time in this machine's zone, and pauses there as StopFailure does", async () => {
    const { repo, env } = workspace();
    const rollout = join(
      tempDir('baton-tr-'),
      'rollout-2026-07-05T19-00-00-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    const ev = (type: string, payload: Record<string, unknown>, at = new Date()) =>
      JSON.stringify({ timestamp: at.toISOString(), type, payload });
    // the reset three hours ahead (a fixed clock time would have passed between the hook and the context whenever the
    // test ran at that very minute), said as Codex says it, in India's time: UTC+5:30 all year
    const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 3_600_000);
    const india = new Date(reset.getTime() + 330 * 60_000);
    const clock = `${india.getUTCHours() % 12 || 12}:${String(india.getUTCMinutes()).padStart(2, '0')} ${india.getUTCHours() < 12 ? 'AM' : 'PM'}`;
    const utc = reset.toISOString().slice(11, 16);
    writeFileSync(
      rollout,
      `${[
        ev(
          'session_meta',
          { id: '019e1625-789d-76c0-80ab-3724b5ddb799', cwd: repo, cli_version: '0.125.0' },
          minutesAgo(5),
        ),
        ev('event_msg', { type: 'user_message', message: 'Add the retry' }, minutesAgo(5)),
        ev(
          'event_msg',
          { type: 'agent_message', message: 'The retry is in; the tests are next.' },
          minutesAgo(1),
        ),
        // a call the limit cut off before it returned
        ev('response_item', {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: 'git commit -m retry' }),
          call_id: 'call-1',
        }),
        ev('event_msg', {
          type: 'error',
          message: `You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at ${clock}.`,
        }),
      ].join('\n')}\n`,
    );
    const stop = () =>
      runCli(['hook', 'Stop', '--agent', 'codex'], {
        cwd: repo,
        // India has no daylight saving: its clock is UTC+5:30 all year
        env: { ...env, TZ: 'Asia/Kolkata' },
        input: JSON.stringify({
          session_id: '019e1625-789d-76c0-80ab-3724b5ddb799',
          turn_id: 't1',
          cwd: repo,
          hook_event_name: 'Stop',
          transcript_path: rollout,
          stop_hook_active: false,
          last_assistant_message: 'The retry is in; the tests are next.',
        }),
      });
    const r = await stop();
    expect(r.code).toBe(0);
    // Codex fires Stop, not StopFailure: the limit its rollout ends on cuts the turn short all the same, with the
    // snapshot Claude Code's StopFailure takes (trigger usage_limit, the limit as its reason)
    expect(r.stderr).toMatch(
      new RegExp(
        `stopped by a usage limit of Codex, session 1, resets at ${clock}, which is \\d{4}-\\d\\d-\\d\\d ${utc} UTC; snapshot snap-\\S+; imported `,
      ),
    );
    const snapshots = async () =>
      (await runCli(['snapshots', '--json'], { cwd: repo, env })).json<{
        snapshots: { trigger: string; pause_reason: string | null }[];
      }>().snapshots;
    expect(await snapshots()).toEqual([
      expect.objectContaining({
        trigger: 'usage_limit',
        pause_reason: expect.stringMatching(
          new RegExp(`^stopped by a usage limit of Codex, session 1, resets at ${clock}, which is `),
        ),
      }),
    ]);
    // the same Stop again (nothing new in the rollout) takes no second snapshot
    expect((await stop()).code).toBe(0);
    expect(await snapshots()).toHaveLength(1);
    const context = (await runCli(['context'], { cwd: repo, env })).stdout;
    expect(nextOf(context)).toMatch(
      new RegExp(
        `ended because: stopped by a usage limit of Codex, session 1, resets at ${clock}, which is \\d{4}-\\d\\d-\\d\\d ${utc} UTC\\.$`,
      ),
    );
    expect(context).toMatch(
      /### Last State \(the agent's last message[^)]*\)\nThe retry is in; the tests are next\./,
    );
    // the turn did not end on that message (the Stop's copy of it): the call it left open is still said
    expect(context).toContain('The transcript ends before this call returned (check whether it ran)');
    expect(context).not.toContain('UNRESOLVED');
  });
  it('is said as past in `baton status` once its reset is, with what that allows', async () => {
    const { repo, env, baton } = workspace();
    const rollout = join(
      tempDir('baton-tr-'),
      'rollout-2026-07-05T19-00-00-019e1625-789d-76c0-80ab-3724b5ddb798.jsonl',
    );
    const ev = (type: string, payload: Record<string, unknown>, at: Date) =>
      JSON.stringify({ timestamp: at.toISOString(), type, payload });
    writeFileSync(
      rollout,
      `${[
        ev('session_meta', { id: '019e1625-789d-76c0-80ab-3724b5ddb798', cwd: repo }, minutesAgo(9)),
        ev('event_msg', { type: 'user_message', message: 'Add the retry' }, minutesAgo(9)),
        ev('event_msg', { type: 'agent_message', message: 'The retry is in.' }, minutesAgo(8)),
        // its reset came four minutes ago
        ev(
          'event_msg',
          { type: 'error', message: "You've hit your usage limit. Try again in 3 minutes." },
          minutesAgo(7),
        ),
      ].join('\n')}\n`,
    );
    const r = await runCli(['hook', 'Stop', '--agent', 'codex'], {
      cwd: repo,
      env,
      input: JSON.stringify({
        session_id: '019e1625-789d-76c0-80ab-3724b5ddb798',
        cwd: repo,
        hook_event_name: 'Stop',
        transcript_path: rollout,
        last_assistant_message: 'The retry is in.',
      }),
    });
    const reset = resetIn(r.stderr);
    expect(reset).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)? UTC$/);
    expect((await baton(['status'])).stdout).toContain(
      `agent: stopped by a usage limit of Codex, session 1, that has reset since (at ${reset}): Codex can go on`,
    );
  });
});
