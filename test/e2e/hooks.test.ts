import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { corpusPath } from '../helpers/corpus.js';
import { claudeTool } from '../helpers/transcript-lines.js';
import { codexHook } from '../helpers/codex-conversation.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, type Baton, agentHooks, stepsSession } from '../helpers/hook-workspace.js';

/** A real hook payload from the corpus, pointed at a temporary repository (unknown fields kept as they are). */
function payload(file: string, index: number, cwd: string, extra: Record<string, unknown> = {}) {
  const list = JSON.parse(readFileSync(corpusPath(`hooks/serverless-plugins/${file}`), 'utf8')) as Record<
    string,
    unknown
  >[];
  return JSON.stringify({ ...list[index], cwd, transcript_path: join(cwd, 'no-transcript.jsonl'), ...extra });
}

type Status = Record<string, any>;

function workspace(env: Record<string, string | undefined> = {}) {
  const { repo, env: e, baton } = hookWorkspace(env);
  const status = async () => (await baton(['status', '--json'])).json<Status>();
  const doctor = async () => (await baton(['doctor', '--json'])).json<Status>();
  return { repo, env: e, baton, status, doctor };
}

const context = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

describe('baton hook <event> on a workflow made with baton create', () => {
  it('resumes and injects at session start, snapshots before compaction, keeps the summary after it', async () => {
    const { repo, baton, status } = workspace();
    await baton(['create', '--title', 'Hooked', '--task', 'A:Schema', '--task', 'B:API:A']);
    await baton(['task', 'start', 'A']);
    await baton([
      'record',
      'decision',
      '--type',
      'library',
      '--description',
      'Use zod',
      '--rationale',
      'one schema',
    ]);
    // A task under way: the pause waits for it, and says what else makes it happen.
    expect((await baton(['pause', '--reason', 'night'])).stdout).toMatch(
      /: it pauses when A finishes, or by force once 5m00s have passed \(the request's timeout, `baton pause --pause-timeout`\); `baton pause --force` pauses now, `baton resume` withdraws the request$/m,
    );
    await baton(['task', 'done', 'A']);

    const start = await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo));
    expect(start.code).toBe(0);
    const text = context(start.stdout);
    expect(text).toContain('Continue from task "B: API"');
    expect(text).toContain('Use zod');
    expect(text).toMatch(/`baton details snap-[\w-]+ <decisions/);
    expect(text).not.toMatch(/GET \/workflows/);
    // one footer: the injection's own, not the compiled context's short line as well
    expect(text.match(/^---$/gm)).toHaveLength(1);
    expect(text).not.toMatch(/^More: /m);
    let s = await status();
    expect(s.workflow).toMatchObject({ status: 'in_progress', session_count: 2 });
    expect(s.handoff).toMatchObject({ acknowledged_via: 'hook', loaded_latest: true });
    // the agent reported itself: the session says whose it is (no turn of it under way yet: it waits for its user)
    expect((await baton(['session-status'])).stdout).toMatch(
      /agent running: no turn under way \(Claude Code session \S+: quit, or waiting for its user\)/,
    );

    await baton(['task', 'start', 'B']);
    const pre = await baton(
      ['hook', 'PreCompact'],
      payload('session_start.json', 0, repo, {
        hook_event_name: 'PreCompact',
        trigger: 'auto',
        source: undefined,
      }),
    );
    expect(pre.code).toBe(0);
    expect(pre.stderr).toMatch(/snapshot .* before compaction/);
    const snaps = (await baton(['snapshots', '--json'])).json<{ snapshots: { trigger: string }[] }>();
    expect(snaps.snapshots.map((x) => x.trigger)).toContain('exhaustion');

    const post = await baton(
      ['hook', 'PostCompact'],
      payload('session_start.json', 0, repo, {
        hook_event_name: 'PostCompact',
        trigger: 'manual',
        compact_summary: 'We designed the schema with zod and started the API routes.',
      }),
    );
    expect(post.stderr).toMatch(/compaction summary kept/);
    const compact = await baton(
      ['hook', 'SessionStart'],
      payload('session_start.json', 0, repo, { source: 'compact' }),
    );
    // the summary Claude Code wrote of what it compacted is the Last State the next context starts from; the
    // compacted session holds it already (its context opens with it): it is named, not repeated
    expect(context(compact.stdout)).toContain('## Session Resume Context');
    expect(context(compact.stdout)).toMatch(
      /### Last State \(the compaction summary[^)]*\)\nNot repeated here: the summary of this compaction opens your context/,
    );
    expect(context(compact.stdout)).not.toContain('We designed the schema');
    // the same conversation goes on: its user is not told again which work it is
    expect(compact.stdout).not.toContain('Baton continues workflow');
    // a new conversation (after /clear) does not hold it: it gets it whole
    const cleared = await baton(
      ['hook', 'SessionStart'],
      payload('session_start.json', 0, repo, { source: 'clear', session_id: 'after-clear' }),
    );
    expect(context(cleared.stdout)).toMatch(
      /### Last State \(the compaction summary[^)]*\)\nWe designed the schema with zod and started the API routes\./,
    );
    // a /clear is often to switch tasks: the user is told which work goes on, as at a start, and how to end it
    expect((JSON.parse(cleared.stdout) as { systemMessage: string }).systemMessage).toMatch(
      /^Baton continues workflow (\S+) "Hooked" in this conversation \(session \d+, 1\/2 done, next B API\); if this conversation is for other work, `baton abandon -w \1` ends that workflow and your next prompt starts a new one/,
    );
    const checkpoint = (await baton(['checkpoint', '--name', 'h', '--json'])).json<{
      checkpoint: { snapshot_id: string };
    }>();
    const summaries = JSON.parse(
      (await baton(['details', checkpoint.checkpoint.snapshot_id, 'summaries', '--json'])).stdout,
    ) as { kind: string; text: string; source: string }[];
    expect(summaries).toContainEqual(
      expect.objectContaining({
        kind: 'compaction',
        text: 'We designed the schema with zod and started the API routes.',
        source: 'claude-code:compact_summary',
      }),
    );
    s = await status();
    expect(s.workflow.status).toBe('in_progress');
  });

  it('makes a checkpoint at Stop only after real work, at most every checkpoint_interval, and at SessionEnd after any; nothing new writes nothing', async () => {
    const { repo, baton, status, doctor } = workspace();
    await baton(['create', '--title', 'Stops', '--task', 'A:Schema', '--task', 'B:API']);
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    copyFileSync(corpusPath('claude-code/spotter/short.jsonl'), transcript);
    const stop = (more: Record<string, string> = {}, said: Record<string, string> = {}) =>
      baton(
        ['hook', 'Stop'],
        payload('abc7156b-6420-4373-a150-9b2eecad6805/stop.json', 0, repo, {
          transcript_path: transcript,
          ...said,
        }),
        more,
      );

    let r = await stop();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /imported \d+ new transcript entries.*no checkpoint: no work recorded yet to checkpoint/,
    );
    await baton(['task', 'start', 'A']);
    const before = (await status()).workflow.version;
    r = await stop();
    expect(r.stderr).toMatch(/nothing new in the transcript since the last import/);
    expect((await status()).workflow.version).toBe(before);
    expect((await doctor()).last_hooks).toContainEqual(
      expect.objectContaining({ agent: 'claude-code', event: 'Stop', outcome: 'nothing' }),
    );

    // New lines in the transcript: the task moved since the last checkpoint, so one is taken.
    appendFileSync(transcript, readFileSync(corpusPath('claude-code/spotter/tool_heavy.jsonl'), 'utf8'));
    r = await stop();
    expect(r.stderr).toMatch(/checkpoint cp-\d+-stop \(tasks moved or side effects recorded\)/);
    await baton(['task', 'start', 'B']);
    appendFileSync(transcript, readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8'));
    r = await stop();
    expect(r.stderr).toMatch(
      /no checkpoint: tasks moved or side effects recorded, but the last checkpoint is 0 min old \(interval 10 min\)/,
    );
    appendFileSync(transcript, readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8'));
    r = await stop({ BATON_CHECKPOINT_INTERVAL: '0s' });
    expect(r.stderr).toMatch(/checkpoint cp-\d+-stop/);
    expect((await status()).checkpoints).toHaveLength(2);
    // listed as taken on a schedule, not by hand
    const triggers = (await baton(['snapshots', '--json'])).json<{ snapshots: { trigger: string }[] }>();
    expect(triggers.snapshots.map((s) => s.trigger)).toEqual(['scheduled', 'scheduled']);

    // The transcript did not grow, but the Stop's last message is another (its lines not flushed yet): it is kept.
    const said = { last_assistant_message: 'Schema done; the API routes are next.' };
    r = await stop({}, said);
    expect(r.stderr).toMatch(/nothing new in the transcript; the agent's last message kept/);
    const live = (await baton(['context', '--json'])).json<{ markdown: string }>();
    expect(live.markdown).toContain('Schema done; the API routes are next.');
    r = await stop({}, said);
    expect(r.stderr).toMatch(/nothing new in the transcript since the last import/);

    // The end of the conversation is a boundary: the work since the last checkpoint gets one, however recent it is.
    await baton(['task', 'add', 'C:Docs']);
    const end = await baton(
      ['hook', 'SessionEnd'],
      payload('session_end.json', 0, repo, {
        session_id: 'abc7156b-6420-4373-a150-9b2eecad6805',
        transcript_path: transcript,
      }),
    );
    expect(end.stderr).toMatch(/checkpoint cp-\d+-session-end \(tasks moved or side effects recorded\)/);
    expect((await status()).checkpoints).toHaveLength(3);
  });

  it("ends the session at SessionEnd on a snapshot, and says which: the Stop's checkpoint when nothing came since, else one taken for it", async () => {
    const { repo, baton, status } = workspace();
    const transcript = join(tempDir('baton-tr-'), 'S1.jsonl');
    const ask = (text: string) =>
      appendFileSync(
        transcript,
        JSON.stringify({
          type: 'user',
          sessionId: 'S1',
          cwd: repo,
          message: { role: 'user', content: text },
        }) + '\n',
      );
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo, transcript_path: transcript });
    ask('Add a hello file and commit it');
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'Add a hello file and commit it' });
    gitIn(repo, 'commit', '-q', '--allow-empty', '-m', 'hello');
    const stop = await hook('Stop');
    expect(stop.stderr).toMatch(/checkpoint cp-01-stop \(new commits\)/);
    const checkpointed = (await status()).snapshots[0]?.id as string;
    // nothing recorded since the Stop's checkpoint: its snapshot is where the session left off, and said so
    const quit = await hook('SessionEnd', { reason: 'prompt_input_exit' });
    expect(quit.stderr).toContain(
      `no checkpoint: no work since the last checkpoint; session 1 ended on snapshot ${checkpointed}, the latest (nothing recorded since)`,
    );
    // the next conversation asks, then quits: what it recorded gets a snapshot of its own
    const hook2 = agentHooks(baton, { session_id: 'S2', cwd: repo, transcript_path: transcript });
    await hook2('SessionStart', { source: 'startup' });
    ask('And a README');
    await hook2('UserPromptSubmit', { prompt: 'And a README' });
    const quit2 = await hook2('SessionEnd', { reason: 'prompt_input_exit' });
    expect(quit2.stderr).toMatch(/; session 2 ended on snapshot snap-\S+ \(handover\)$/m);
  });
});

describe('a SessionStart in a repository deleted and made again at the same path', () => {
  it('starts a new workflow and names the old one, with the commands to end it or continue it', async () => {
    const { repo, baton } = workspace();
    await baton(['create', '--title', 'Old project', '--task', 'T1:Old task']);
    await baton(['task', 'start', 'T1']);
    const old = (await baton(['status', '--json'])).json<Status>().workflow.id as string;
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    // the same person (a real one's identity is in their global git config, which this test's HOME lacks)
    gitIn(repo, 'config', 'user.email', 'test@baton.invalid');
    const start = await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo));
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout) as { systemMessage: string };
    expect(context(start.stdout)).toMatch(
      new RegExp(
        `^Baton set aside workflow ${old} \\("Old project", paused\\): the repository at .* is not the one it followed`,
      ),
    );
    expect(context(start.stdout)).not.toContain('Old task');
    expect(out.systemMessage).toContain(`\`baton abandon -w ${old}\` ends it`);
    expect(out.systemMessage).toMatch(
      new RegExp(
        `\`baton resume -w ${old}\` and \`baton checkpoint -w ${old}\` continue it here\\. This session is followed as a new workflow, wf-`,
      ),
    );
    // what a hook records is the agent's in the event log (a person's `baton create` was the user's)
    const created = /new workflow, (wf-[\w-]+)/.exec(out.systemMessage)?.[1] ?? '';
    expect(readdirSync(join(repo, '.baton', 'runs', created, 'events'))).toEqual(['claude-code']);
  });
});

describe('baton hook never breaks the session and never hides a failure', () => {
  it('exits 0 and tells the user when the install cannot be loaded (a rebuild under way, files missing)', async () => {
    // the launcher alone, without the built files beside it
    const install = tempDir('baton-broken-');
    mkdirSync(join(install, 'bin'));
    copyFileSync(batonBin, join(install, 'bin', 'baton.js'));
    const r = spawnSync(process.execPath, [join(install, 'bin', 'baton.js'), 'hook', 'Stop'], {
      input: '{}',
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).systemMessage).toMatch(
      /^Baton's hook could not load \(Cannot find module .*hook\.cjs.*\): reinstall Baton .*`baton doctor`$/,
    );
  });

  it('exits 0 and says why outside a repository, on bad input and for unknown events', async () => {
    const dir = tempDir('baton-none-');
    const env = { BATON_HOME: tempDir('baton-home-') };
    const none = await runCli(['hook', 'SessionStart'], {
      cwd: dir,
      env,
      input: payload('session_start.json', 0, dir),
    });
    // the user is told once that this session is not followed, and why
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout).systemMessage).toMatch(
      /^Baton is not following this session: \S+ is not a git repository/,
    );
    expect(none.stderr).toMatch(/not a git repository/);
    const noneAgain = await runCli(['hook', 'SessionStart'], {
      cwd: dir,
      env,
      input: payload('session_start.json', 0, dir),
    });
    expect(noneAgain).toMatchObject({ code: 0, stdout: '' });
    const bad = await runCli(['hook', 'Stop'], { cwd: dir, env, input: '{"cwd": 3' });
    expect(bad.code).toBe(0);
    expect(JSON.parse(bad.stdout).systemMessage).toMatch(
      /the Stop hook failed: hook input is not JSON.*baton doctor/,
    );
    const again = await runCli(['hook', 'Stop'], { cwd: dir, env, input: '{"cwd": 3' });
    expect(again).toMatchObject({ code: 0, stdout: '' }); // the same failure is shown once, then only in doctor
    const unknown = await runCli(['hook', 'Notification'], { cwd: dir, env, input: '{}' });
    expect(unknown).toMatchObject({ code: 0, stdout: '' });
    // a name no hook answers (mistyped by hand), with no input: skipped, never a failure doctor keeps for good
    const mistyped = await runCli(['hook', 'Bogus'], { cwd: dir, env, input: '' });
    expect(mistyped).toMatchObject({ code: 0, stdout: '' });
    expect(mistyped.stderr).toMatch(/no hook handler for Bogus/);
    const doctor = await runCli(['doctor', '--json'], { cwd: dir, env });
    expect(JSON.stringify(doctor.json())).not.toMatch(/Bogus hook[^"]*failed/);
  });

  it('accepts unknown sources and fields, and follows nothing when auto_track is off', async () => {
    const { repo, env, baton, status } = workspace();
    const off = await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo), {
      BATON_AUTO_TRACK: 'off',
    });
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout).systemMessage).toMatch(
      /Baton is not following this session: .*auto_track is off/,
    );
    expect(off.stderr).toMatch(/auto_track is off/);
    expect((await baton(['status'])).code).toBe(1);
    const odd = await baton(
      ['hook', 'SessionStart'],
      payload('session_start.json', 0, repo, { source: 'teleport', brand_new_field: { x: 1 } }),
    );
    expect(odd.code).toBe(0);
    expect(context(odd.stdout)).toMatch(/Baton is following this Claude Code session as workflow/);
    // the shell command it names for a task that must outlive the session runs as written
    const add = /add_task \(or `(.+ task add )"<title>"` in a shell\)/.exec(context(odd.stdout))?.[1];
    expect(add, context(odd.stdout)).toBeDefined();
    const added = spawnSync('sh', ['-c', `${add}"Check the login test on CI"`], {
      cwd: repo,
      env: hermeticEnv(env),
      encoding: 'utf8',
    });
    expect(added.status, added.stderr).toBe(0);
    expect((await status()).tasks.map((t: Status) => t.title)).toEqual(['Check the login test on CI']);
    // an agent is at work on it: under way, so the README's pause and resume apply without any task
    expect((await status()).workflow.status).toBe('in_progress');
    expect((await baton(['pause', '--reason', 'end of day'])).code).toBe(0);
    expect((await status()).workflow.status).toBe('paused');
    expect((await baton(['resume'])).code).toBe(0);
    expect((await status()).workflow.status).toBe('in_progress');
  });

  it('returns at once, saying why, when BATON_HOME is a folder that cannot be made (under /proc)', async () => {
    const { repo, baton } = workspace();
    const r = await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo), {
      BATON_HOME: '/proc/baton-cannot-be-here',
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { systemMessage: string }).systemMessage).toMatch(
      /the SessionStart hook failed: cannot open the SQLite database \/proc\/baton-cannot-be-here/,
    );
    expect(r.stderr).toContain('cannot write the hook log');
  });

  it('reports a database it cannot open in the session, not only on stderr', async () => {
    const { repo, baton } = workspace();
    const r = await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo), {
      BATON_DATABASE_URL: join(repo, 'README.md', 'cannot', 'be.db'),
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, any>;
    expect(out.systemMessage).toMatch(/the SessionStart hook failed/);
    expect(out.hookSpecificOutput.additionalContext).toMatch(/Baton could not load.*baton doctor/);
  });
});

describe("the agent's task tools in PostToolUse", () => {
  it('follows TaskCreate / TaskUpdate, and the same TodoWrite call from the hook and a later import counts once', async () => {
    const { repo, baton, status } = workspace();
    const tool = (name: string, id: string, input: unknown, response: unknown = {}) =>
      baton(
        ['hook', 'PostToolUse'],
        JSON.stringify({
          session_id: 'S1',
          cwd: repo,
          hook_event_name: 'PostToolUse',
          tool_name: name,
          tool_input: input,
          tool_response: response,
          tool_use_id: id,
        }),
      );
    expect((await tool('Read', 'r1', { file_path: 'x' })).stderr).toMatch(/Read is not a task-list tool/);
    await tool(
      'TaskCreate',
      't1',
      { subject: 'Write the parser', activeForm: 'Writing' },
      { task: { id: '1', subject: 'Write the parser' } },
    );
    await tool('TaskCreate', 't2', { subject: 'Document it' }, { task: { id: '2', subject: 'Document it' } });
    // linked after both were made: the task waits for the other
    const link = await tool('TaskUpdate', 't2b', { taskId: '2', addBlockedBy: ['1'] });
    expect(link.stderr).toMatch(/task list: T2 now waits for T1/);
    expect((await status()).tasks.find((t: { id: string }) => t.id === 'T2').deps).toEqual(['T1']);
    // the other way round too: a cycle, refused and said
    const back = await tool('TaskUpdate', 't2c', { taskId: '1', addBlockedBy: ['2'] });
    expect(back.stderr).toMatch(/T1 not linked to T2: the agent's list makes them wait for each other/);
    // shown to the user too (stderr of a hook that succeeds is only in Claude Code's verbose mode)
    expect(JSON.parse(back.stdout).systemMessage).toBe(
      "Baton: T1 not linked to T2: the agent's list makes them wait for each other (a cycle)",
    );
    await tool('TaskUpdate', 't3', { taskId: '1', status: 'in_progress' });
    await tool('TaskUpdate', 't4', { taskId: '1', status: 'completed' });
    const del = await tool('TaskUpdate', 't5', { taskId: '2', status: 'deleted' });
    expect(del.stderr).toMatch(/task list: skipped T2/);
    let s = await status();
    expect(
      s.tasks.map((t: { id: string; title: string; status: string }) => [t.id, t.title, t.status]),
    ).toEqual([
      ['T1', 'Write the parser', 'done'],
      ['T2', 'Document it', 'skipped'],
    ]);

    // A real TodoWrite call, first through the hook, then again in the transcript import at Stop.
    const source = corpusPath('claude-code/codemie-code-2/session-196820da.jsonl');
    const lines = readFileSync(source, 'utf8').split('\n');
    const line = JSON.parse(lines[8] ?? '{}') as {
      message: { content: { id: string; name: string; input: unknown }[] };
    };
    const call = line.message.content.find((c) => c.name === 'TodoWrite')!;
    const first = await tool('TodoWrite', call.id, call.input);
    expect(first.stderr).toMatch(/task list: added T3, T4, T5, T6, T7; started T3/);
    const version = (await status()).workflow.version;
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    writeLines(transcript, lines.slice(0, 12));
    const stop = await baton(
      ['hook', 'Stop'],
      JSON.stringify({ session_id: 'S1', cwd: repo, hook_event_name: 'Stop', transcript_path: transcript }),
    );
    expect(stop.code).toBe(0);
    s = await status();
    expect(s.tasks).toHaveLength(7);
    const events = (s.workflow.version as number) - version;
    // The import wrote its records and marker, but no task event: the call was already applied.
    expect(stop.stderr).not.toMatch(/tasks:/);
    expect(events).toBeGreaterThan(0);
  });
});

describe('an older TodoWrite whose hook never reached Baton', () => {
  it('is not applied over the newer list when the import at Stop replays it', async () => {
    const { repo, baton, status } = workspace();
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const todos = {
      older: [{ content: 'Write mul', status: 'in_progress', activeForm: 'Writing' }],
      newer: [
        { content: 'Write mul', status: 'completed', activeForm: 'Writing' },
        { content: 'Add a test', status: 'in_progress', activeForm: 'Testing' },
      ],
    };
    const call = (id: string, input: unknown, minutes: number) => [
      JSON.stringify({
        type: 'assistant',
        sessionId: 'S1',
        timestamp: at(minutes),
        message: {
          id: `m-${id}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'TodoWrite', input }],
        },
      }),
      JSON.stringify({
        type: 'user',
        sessionId: 'S1',
        timestamp: at(minutes),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: 'Todos have been modified' }],
        },
      }),
    ];
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    writeLines(transcript, [
      JSON.stringify({
        type: 'user',
        sessionId: 'S1',
        timestamp: at(3),
        message: { role: 'user', content: 'Add mul and a test' },
      }),
      // its PostToolUse hook failed or timed out (or the folder was no repository yet): Baton never saw it
      ...call('toolu-older', { todos: todos.older }, 2),
      ...call('toolu-newer', { todos: todos.newer }, 1),
    ]);
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo, transcript_path: transcript });
    const newer = await hook('PostToolUse', {
      tool_name: 'TodoWrite',
      tool_input: { todos: todos.newer },
      tool_response: {},
      tool_use_id: 'toolu-newer',
    });
    expect(newer.stderr).toMatch(/task list: added T1, T2; started T2; completed T1/);
    const stop = await hook('Stop', { stop_hook_active: false });
    expect(stop.code).toBe(0);
    expect(stop.stderr).not.toMatch(/skipped/);
    const s = await status();
    expect(s.tasks.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([
      ['T1', 'done'],
      ['T2', 'in_progress'],
    ]);
    expect(s.next_task?.id).toBe('T2');
    expect((await baton(['context'])).stdout).not.toMatch(/Every task is done/);
  });
});

describe('an older TaskUpdate whose hook never reached Baton', () => {
  it("does not set its task's status back when the import at Stop replays it", async () => {
    const { repo, baton, status } = workspace();
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const call = (id: string, name: string, input: unknown, result: string, minutes: number) =>
      claudeTool(id, name, input, result).map((l) =>
        JSON.stringify({ ...JSON.parse(l), sessionId: 'S1', timestamp: at(minutes) }),
      );
    const create = (n: string, subject: string, minutes: number) =>
      call(
        `toolu-c${n}`,
        'TaskCreate',
        { subject, description: '' },
        `Task #${n} created successfully: ${subject}`,
        minutes,
      );
    const update = (n: string, status: string, minutes: number) =>
      call(
        `toolu-u${n}-${minutes}`,
        'TaskUpdate',
        { taskId: n, status },
        `Updated task #${n} status`,
        minutes,
      );
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    writeLines(transcript, [
      JSON.stringify({
        type: 'user',
        sessionId: 'S1',
        timestamp: at(7),
        message: { role: 'user', content: 'Add mul and a test' },
      }),
      ...create('1', 'Write mul', 6),
      ...update('1', 'in_progress', 5),
      // the hooks of these two failed or timed out: Baton never saw them
      ...update('1', 'completed', 4),
      // (its test failed: the agent took the task up again)
      ...update('1', 'in_progress', 3),
      ...create('2', 'Add a test', 2.5),
      ...update('2', 'in_progress', 2),
      ...update('2', 'completed', 1),
    ]);
    const hook = agentHooks(baton, { session_id: 'S1', cwd: repo, transcript_path: transcript });
    const seen = (id: string, name: string, input: Record<string, unknown>, response: unknown) =>
      hook('PostToolUse', { tool_name: name, tool_input: input, tool_response: response, tool_use_id: id });
    await seen('toolu-c1', 'TaskCreate', { subject: 'Write mul', description: '' }, { task: { id: '1' } });
    await seen('toolu-u1-5', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, {});
    await seen('toolu-u1-3', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, {});
    await seen('toolu-c2', 'TaskCreate', { subject: 'Add a test', description: '' }, { task: { id: '2' } });
    await seen('toolu-u2-1', 'TaskUpdate', { taskId: '2', status: 'completed' }, {});
    const tasks = async () =>
      (await status()).tasks.map((t: { id: string; status: string }) => [t.id, t.status]);
    expect(await tasks()).toEqual([
      ['T1', 'in_progress'],
      ['T2', 'done'],
    ]);
    const stop = await hook('Stop', { stop_hook_active: false });
    expect(stop.code).toBe(0);
    // the replayed updates are older than the newest of their task: T1 is not done, T2 not started again
    expect(stop.stderr).not.toMatch(/completed T1|started T2/);
    expect(await tasks()).toEqual([
      ['T1', 'in_progress'],
      ['T2', 'done'],
    ]);
    expect((await status()).next_task?.id).toBe('T1');
  });
});

describe('a pause asked for while the agent works through its own task list', () => {
  it('takes effect at the boundary the list reaches, tells the user, and the next prompt resumes', async () => {
    const { repo, baton, status } = workspace();
    const hook = (event: string, more: Record<string, unknown>) =>
      baton(
        ['hook', event],
        JSON.stringify({ session_id: 'S1', cwd: repo, hook_event_name: event, ...more }),
      );
    const todo = (id: string, ...statuses: string[]) =>
      hook('PostToolUse', {
        tool_name: 'TodoWrite',
        tool_use_id: id,
        tool_input: {
          todos: statuses.map((st, i) => ({
            content: `Step ${i + 1} of the work`,
            status: st,
            activeForm: 'x',
          })),
        },
        tool_response: {},
      });
    await hook('UserPromptSubmit', { prompt: 'Do the three steps' });
    await todo('t1', 'in_progress', 'pending', 'pending');
    expect((await baton(['pause', '--reason', 'end of day'])).stdout).toMatch(/it pauses when T1 finishes/);
    // the agent finishes step 1 and goes on with step 2 in one call: the boundary between them is the pause
    const boundary = await todo('t2', 'completed', 'in_progress', 'pending');
    expect(boundary.stderr).toMatch(
      /task list: completed T1; paused at the boundary \(snapshot snap-\S+\), the agent stopped/,
    );
    // the agent stops there (its turn ends after this hook), and the user reads why
    const stopped = JSON.parse(boundary.stdout) as {
      continue: boolean;
      stopReason: string;
      systemMessage?: string;
    };
    expect(stopped.continue).toBe(false);
    expect(stopped.stopReason).toMatch(
      /^Baton paused workflow wf-\S+ at the task boundary you asked for \(snapshot snap-\S+\); your next prompt resumes it: the agent stopped here$/,
    );
    expect(stopped.systemMessage).toBeUndefined();
    let s = await status();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'end of day' });
    expect(s.tasks.map((t: { status: string }) => t.status)).toEqual(['done', 'pending', 'pending']);
    // the user types again in the same session: the workflow resumes, and they are told
    const back = await hook('UserPromptSubmit', { prompt: 'go on' });
    expect(JSON.parse(back.stdout).systemMessage).toMatch(/Baton resumed workflow wf-\S+ as session 2/);
    s = await status();
    expect(s.workflow).toMatchObject({ status: 'in_progress', session_count: 2 });
    // the step the agent went on with starts with its next change to the list
    expect((await todo('t3', 'completed', 'in_progress', 'pending')).stderr).toMatch(/started T2/);
  });

  it("lets the agent say what it did when its list's last task is the boundary, and pauses at the turn's end", async () => {
    const ws = workspace();
    const { baton, status } = ws;
    const { hook, todo } = stepsSession(ws);
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'completed', 'in_progress');
    expect((await baton(['pause', '--reason', 'lunch'])).stdout).toMatch(/it pauses when T2 finishes/);
    // the last step done: nothing is left to stop, so the agent is not cut off before its last message
    const last = await todo('t2', 'completed', 'completed');
    expect(last.stdout.trim()).toBe('');
    expect(last.stderr).toMatch(
      /every task is done: the pause asked for takes effect when the agent's turn ends/,
    );
    expect((await status()).workflow.status).toBe('in_progress');
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Both steps are done.' });
    expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
  });

  it('a new conversation resumes the paused workflow and tells the user, with why it was paused', async () => {
    const { repo, baton, status } = workspace();
    const hook = (event: string, more: Record<string, unknown>, session = 'S1') =>
      baton(
        ['hook', event],
        JSON.stringify({ session_id: session, cwd: repo, hook_event_name: event, ...more }),
      );
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await hook('PostToolUse', {
      tool_name: 'TodoWrite',
      tool_use_id: 't1',
      tool_input: {
        todos: ['in_progress', 'pending'].map((st, i) => ({
          content: `Step ${i + 1}`,
          status: st,
          activeForm: 'x',
        })),
      },
      tool_response: {},
    });
    await hook('Stop', { stop_hook_active: false });
    // no turn under way: the pause takes effect at once; the user quits
    expect((await baton(['pause', '--reason', 'end of day'])).code).toBe(0);
    expect((await status()).workflow.status).toBe('paused');
    await hook('SessionEnd', { reason: 'prompt_input_exit' });
    // the next morning, a new conversation: the workflow goes on, and the user hears that it was paused
    const next = await hook('SessionStart', { source: 'startup' }, 'S2');
    expect(JSON.parse(next.stdout).systemMessage).toMatch(
      /^Baton resumed workflow wf-\S+ "[^"]+", which was paused \(end of day\), in this conversation \(session 2, /,
    );
    expect((await status()).workflow.status).toBe('in_progress');
  });

  it('outlives its timeout: the next prompt forces it, then resumes, with the timeout the pause was asked with', async () => {
    const ws = workspace();
    const { baton, status } = ws;
    const { hook, todo } = stepsSession(ws);
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'in_progress', 'pending');
    // asked with a timeout of its own (the hooks' default is five minutes)
    expect((await baton(['--pause-timeout', '1s', 'pause', '--reason', 'end of day'])).stdout).toMatch(
      /it pauses when T1 finishes/,
    );
    await new Promise((r) => setTimeout(r, 1200));
    // the next morning the user types again: the pause that waited too long takes effect, and the prompt resumes it
    const back = await hook('UserPromptSubmit', { prompt: 'good morning, go on' });
    expect(JSON.parse(back.stdout).systemMessage).toMatch(/Baton resumed workflow wf-\S+ as session 2/);
    const s = await status();
    expect(s.workflow).toMatchObject({ status: 'in_progress', session_count: 2 });
  });

  it('takes effect at a boundary first read in the transcript at Stop (no PostToolUse hook), and tells the user', async () => {
    const { repo, baton, status } = workspace();
    const hook = (event: string, more: Record<string, unknown> = {}) =>
      baton(
        ['hook', event],
        JSON.stringify({ session_id: 'S1', cwd: repo, hook_event_name: event, ...more }),
      );
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    const todos = (...statuses: string[]) => ({
      todos: statuses.map((st, i) => ({ content: `Step ${i + 1} of the work`, status: st, activeForm: 'x' })),
    });
    const user = JSON.stringify({
      type: 'user',
      sessionId: 'S1',
      message: { role: 'user', content: 'Do the two steps' },
    });
    writeLines(transcript, [user, ...claudeTool('w1', 'TodoWrite', todos('in_progress', 'pending'), 'ok')]);
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    expect((await hook('Stop', { transcript_path: transcript })).stderr).toMatch(/tasks: 2 added, 1 started/);
    // the turn ended with T1 in progress: the agent waits for its user, so nothing works on T1 and no boundary comes
    expect((await baton(['pause'])).stdout).toMatch(
      /^paused wf-\S+ \(snapshot snap-\S+\)\nwarning: paused between the agent's turns while T1 was in progress\n/,
    );
    await hook('UserPromptSubmit', { prompt: 'Go on' });
    expect((await baton(['pause', '--reason', 'lunch'])).stdout).toMatch(
      /it pauses when T1 finishes or when the Claude Code turn under way \(session 2\) ends, whichever comes first/,
    );
    writeLines(transcript, claudeTool('w2', 'TodoWrite', todos('completed', 'in_progress'), 'ok'));
    const stop = await hook('Stop', { transcript_path: transcript });
    expect(stop.stderr).toMatch(/paused at the boundary \(snapshot snap-/);
    expect(JSON.parse(stop.stdout).systemMessage).toMatch(
      /Baton paused workflow wf-\S+ at the task boundary/,
    );
    expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
  });
});

function writeLines(path: string, lines: string[]) {
  appendFileSync(path, `${lines.join('\n')}\n`);
}

describe("a pause asked for while the agent's turn is under way and no task is in progress", () => {
  const codexRollout =
    'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
  /** A real Codex conversation, written to a rollout of its own line by line as Codex wrote it. */
  function codexSession(repo: string, baton: Baton) {
    const lines = readFileSync(corpusPath(codexRollout), 'utf8').split('\n').filter(Boolean);
    const path = join(tempDir('baton-tr-'), codexRollout.split('/').at(-1) ?? 'rollout.jsonl');
    const upTo = (n: number) => {
      const done = readFileSync(path, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean).length;
      writeLines(path, lines.slice(done, n));
    };
    const codex = codexHook(baton, {
      repo,
      id: '019e1625-789d-76c0-80ab-3724b5ddb799',
      turn: '019e162b-0011-7240-abbc-f7b732e49728',
      transcript: path,
    });
    const said = (n: number) =>
      (JSON.parse(lines[n - 1] ?? '{}') as { payload: { message: string } }).payload.message;
    return { upTo, codex, said };
  }

  it("lets a Codex turn finish: it takes effect at the turn's Stop, with the plan the turn brought, and tells the user", async () => {
    const { repo, baton, status } = workspace();
    const { upTo, codex, said } = codexSession(repo, baton);
    // the first turn ran before the hooks; Codex starts the second (its bookkeeping lines), then runs its hooks
    upTo(21);
    await codex('SessionStart', { source: 'startup' });
    await codex('UserPromptSubmit', { prompt: said(23) });
    // the agent is at work: its plan has a step in progress (line 241), which Codex gives no hook until the Stop
    upTo(260);
    const asked = await baton(['pause', '--reason', 'lunch']);
    expect(asked.stdout).toMatch(
      /^pause requested for wf-\S+: the Codex turn under way \(session 1\) is let finish: the pause takes effect when the agent's turn ends, or by force once 5m00s have passed/,
    );
    let s = await status();
    expect(s.workflow).toMatchObject({ status: 'in_progress', pause_request: { until: 'turn_end' } });
    expect((await baton(['status'])).stdout).toMatch(
      /status: in_progress \(pause requested, when the agent's turn ends\)\n/,
    );
    // the turn goes on (its plan: steps 1 and 2 done, step 3 begun) and ends with the agent's summary
    upTo(385);
    const stop = await codex('Stop', { stop_hook_active: false, last_assistant_message: said(383) });
    expect(stop.stderr).toMatch(
      /tasks: 3 added, 2 started, 2 completed.*; paused at the end of the agent's turn \(snapshot snap-/,
    );
    expect(JSON.parse(stop.stdout).systemMessage).toMatch(
      /^Baton paused workflow wf-\S+ at the end of the agent's turn, as you asked \(snapshot snap-\S+\); your next prompt resumes it$/,
    );
    s = await status();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch', pause_requested: false });
    expect(s.tasks.map((t: { status: string }) => t.status)).toEqual(['done', 'done', 'in_progress']);
    expect(s.warnings).toEqual(["paused at the end of the agent's turn while T3 was in progress"]);
    // the pause's snapshot holds the turn's last message
    const context = (await baton(['context'])).stdout;
    expect(context).toMatch(
      /### Last State \(the agent's last message[^)]*\)\nImplemented the default context compaction/,
    );
    // the user types again: the workflow resumes
    upTo(386);
    const back = await codex('UserPromptSubmit', { prompt: 'now the docs' });
    expect(JSON.parse(back.stdout).systemMessage).toMatch(/Baton resumed workflow wf-\S+ as session 2/);
  });

  it("takes effect when the user interrupts the Codex turn (its Interrupt hook, Esc), and Codex's SessionEnd ends the session", async () => {
    // Codex's SessionEnd works 2 s at most (hookBudget): on a loaded machine its import, checkpoint and session end
    // take longer, so the hooks here get a minute; the 2 s themselves are hook-payload.test.ts's
    const { repo, baton, status } = workspace({ BATON_HOOK_BUDGET: '60s' });
    const { upTo, codex, said } = codexSession(repo, baton);
    upTo(21);
    await codex('SessionStart', { source: 'startup' });
    await codex('UserPromptSubmit', { prompt: said(23) });
    upTo(260);
    expect((await baton(['pause', '--reason', 'lunch'])).code).toBe(0);
    // Codex's Interrupt carries no last message, and takes no field but systemMessage in its answer
    const esc = await codex('Interrupt', { permission_mode: 'default' });
    expect(esc.code, esc.stderr).toBe(0);
    expect(esc.stderr).toMatch(
      /^baton: Interrupt: imported \d+ new transcript entries.*; paused at the end of the agent's turn/,
    );
    const answer = JSON.parse(esc.stdout) as Record<string, string>;
    expect(Object.keys(answer)).toEqual(['systemMessage']);
    expect(answer.systemMessage).toMatch(
      /^Baton paused workflow wf-\S+ at the end of the agent's turn, as you asked/,
    );
    expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    // the user asks again (session 2), then quits Codex: its SessionEnd (reason `other`, Codex's only one) ends it
    upTo(386);
    await codex('UserPromptSubmit', { prompt: 'now the docs' });
    const quit = await codex('SessionEnd', { reason: 'other' });
    // on the snapshot of the checkpoint it took just before, said as that one's: no gap after the work is suggested
    expect(quit.stderr).toMatch(
      /checkpoint (cp-\S+) .*; session 2 ended on snapshot snap-\S+, that of checkpoint \1 just taken$/m,
    );
    expect(quit.stderr).not.toContain('nothing recorded since');
  });

  it('is forced, with why, once its timeout passes before the turn ends', async () => {
    const { repo, baton, status } = workspace();
    const { upTo, codex, said } = codexSession(repo, baton);
    upTo(21);
    await codex('SessionStart', { source: 'startup' });
    await codex('UserPromptSubmit', { prompt: said(23) });
    upTo(260);
    expect((await baton(['--pause-timeout', '1s', 'pause', '--reason', 'lunch'])).stdout).toMatch(
      /is let finish: the pause takes effect when the agent's turn ends/,
    );
    await new Promise((r) => setTimeout(r, 1200));
    const s = await status();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    expect(s.warnings).toEqual(["pause timeout of 1 s passed while the agent's turn was under way"]);
  });

  it('lets a Claude Code turn finish too, past the boundaries its task list reaches meanwhile', async () => {
    const { repo, baton, status } = workspace();
    const hook = (event: string, more: Record<string, unknown> = {}) =>
      baton(
        ['hook', event],
        JSON.stringify({ session_id: 'S1', cwd: repo, hook_event_name: event, ...more }),
      );
    const todo = (id: string, ...statuses: string[]) =>
      hook('PostToolUse', {
        tool_name: 'TodoWrite',
        tool_use_id: id,
        tool_input: {
          todos: statuses.map((st, i) => ({
            content: `Step ${i + 1} of the fix`,
            status: st,
            activeForm: 'x',
          })),
        },
        tool_response: {},
      });
    await hook('UserPromptSubmit', { prompt: 'Fix the flaky upload test' });
    expect((await baton(['pause', '--reason', 'meeting'])).stdout).toMatch(
      /the Claude Code turn under way \(session 1\) is let finish/,
    );
    // the agent makes its list and works through it: no boundary of it is the pause's
    expect((await todo('t1', 'in_progress', 'pending')).stderr).toMatch(
      /^baton: PostToolUse: task list: added T1, T2; started T1$/m,
    );
    expect((await todo('t2', 'completed', 'in_progress')).stderr).not.toMatch(/paused/);
    expect((await todo('t3', 'completed', 'completed')).stderr).not.toMatch(/paused/);
    expect((await status()).workflow.status).toBe('in_progress');
    const stop = await hook('Stop', { last_assistant_message: 'The upload test is stable now.' });
    expect(JSON.parse(stop.stdout).systemMessage).toMatch(
      /Baton paused workflow wf-\S+ at the end of the agent's turn/,
    );
    const s = await status();
    expect(s.workflow).toMatchObject({ status: 'paused', pause_reason: 'meeting' });
    expect(s.warnings).toEqual([]);
    // the next prompt resumes it; between turns, with no task in progress, a pause takes effect at once
    await hook('UserPromptSubmit', { prompt: 'and the download test?' });
    await hook('Stop', { last_assistant_message: 'It was never flaky.' });
    expect((await baton(['pause', '--reason', 'done for today'])).stdout).toMatch(
      /^paused wf-\S+ \(snapshot snap-/,
    );
  });

  it('takes effect at once after the user cut the turn off (Esc sends no Stop): pause reads the transcript first', async () => {
    const { repo, baton, status } = workspace();
    const transcript = join(tempDir('baton-tr-'), 'session.jsonl');
    const hook = (event: string, more: Record<string, unknown> = {}) =>
      baton(
        ['hook', event],
        JSON.stringify({
          session_id: 'S1',
          cwd: repo,
          hook_event_name: event,
          transcript_path: transcript,
          ...more,
        }),
      );
    const user = (text: string) =>
      JSON.stringify({
        type: 'user',
        sessionId: 'S1',
        timestamp: new Date(Date.now() + 1000).toISOString(),
        message: { role: 'user', content: text },
      });
    writeLines(transcript, [user('Fix the flaky upload test')]);
    await hook('UserPromptSubmit', { prompt: 'Fix the flaky upload test' });
    // the agent runs the tests, the user presses Esc: Claude Code writes its marker, and no hook comes
    writeLines(transcript, [
      ...claudeTool('b1', 'Bash', { command: 'npm test' }, 'running'),
      user('[Request interrupted by user for tool use]'),
    ]);
    const paused = await baton(['pause', '--reason', 'lunch']);
    expect(paused.stdout).toMatch(
      /^read \d+ new transcript entries of \S+session\.jsonl\npaused wf-\S+ \(snapshot snap-/,
    );
    expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
  });
});

describe('Codex hooks', () => {
  it("records the user's prompts as requests, not the task notifications Claude Code delivers as prompts", async () => {
    const { repo, baton } = workspace();
    await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo));
    const notes: string[] = [];
    for (const i of [1, 2, 3, 4, 5]) {
      const r = await baton(['hook', 'UserPromptSubmit'], payload('user_prompt_submit.json', i, repo));
      expect(r.code).toBe(0);
      notes.push(r.stderr);
    }
    expect(notes.filter((n) => /request recorded/.test(n))).toHaveLength(2);
    expect(notes.filter((n) => /no request in the prompt/.test(n))).toHaveLength(3);
    const snap = (await baton(['checkpoint', '--name', 'prompts', '--json'])).json<{
      checkpoint: { snapshot_id: string };
    }>();
    const requests = JSON.parse(
      (await baton(['details', snap.checkpoint.snapshot_id, 'requests', '--json'])).stdout,
    ) as { text: string }[];
    expect(requests.map((r) => r.text.slice(0, 30))).toEqual([
      'ok start a new folder/files in',
      'do a and b at the same time. P',
    ]);
  });

  it('injects the context on the first prompt after a compaction (PostCompact has no summary), once', async () => {
    const { repo, baton } = workspace();
    const codex = codexHook(baton, { repo, id: '019e1625-789d', turn: 't1', transcript: null });
    await codex('SessionStart', { source: 'startup' });
    const ask = await codex('UserPromptSubmit', { prompt: 'Add a retry to the uploader' });
    expect(ask).toMatchObject({ code: 0, stdout: '' });
    expect((await codex('PostCompact', { trigger: 'auto' })).stderr).toMatch(
      /the next prompt or session start injects/,
    );
    const next = await codex('UserPromptSubmit', { prompt: 'go on' });
    const out = JSON.parse(next.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toContain('Add a retry to the uploader');
    // the snapshot taken to hand the context over says so, and is no reason the previous session ended
    const snaps = (await baton(['snapshots', '--json'])).json<{ snapshots: { trigger: string }[] }>();
    expect(snaps.snapshots.map((x) => x.trigger)).toContain('handover');
    expect(out.hookSpecificOutput.additionalContext).not.toMatch(/previous session ended because/);
    expect((await codex('UserPromptSubmit', { prompt: 'and more' })).stdout).toBe('');
  });

  it("names the MCP tools before Baton's CLI in Codex's briefing (its sandbox cannot run the CLI), within the characters it may hold", async () => {
    const { repo, baton } = workspace({ BATON_INJECT_MAX_CHARS: '1000' });
    const hook = (agent: string, event: string, extra: Record<string, unknown> = {}) =>
      baton(
        ['hook', event, '--agent', agent],
        JSON.stringify({
          session_id: `${agent}-1`,
          cwd: repo,
          hook_event_name: event,
          transcript_path: null,
          ...extra,
        }),
      );
    const ask = `Add a retry to the uploader. ${'It backs off exponentially and gives up after five tries. '.repeat(40)}`;
    const briefing = async (agent: string) => {
      await hook(agent, 'SessionStart', { source: 'startup' });
      await hook(agent, 'UserPromptSubmit', { prompt: ask });
      return context((await hook(agent, 'SessionStart', { source: 'resume' })).stdout);
    };
    const codex = await briefing('codex');
    // the footer counts toward the limit: the request is cut, the footer whole
    expect(codex.length).toBeLessThanOrEqual(1000);
    expect(codex).toContain(
      '(briefing cut to fit 1000 characters: the MCP tool get_resume_context has the whole)',
    );
    const footer = codex.slice(codex.lastIndexOf('\n---\n'));
    expect(footer).toMatch(
      /^\n---\nMore when needed, from the MCP server `baton` \(outside your sandbox; workflow_id wf-\w+\):\nget_resume_context /,
    );
    expect(footer.indexOf('get_details')).toBeLessThan(footer.indexOf('`baton details'));
    expect(footer).toMatch(
      /\nOutside the sandbox: `baton context -w wf-\w+`, `baton details \S+ <category> -w wf-\w+`\.\n$/,
    );
    // Claude Code runs the CLI: it comes first there
    await baton(['abandon', '-w', /workflow_id (wf-\w+)/.exec(footer)?.[1] ?? '']);
    const claude = await briefing('claude-code');
    expect(claude.length).toBeLessThanOrEqual(1000);
    expect(claude.indexOf('`baton context')).toBeLessThan(claude.indexOf('get_resume_context'));
  });

  it('a workflow whose Codex was quit mid-plan is resumable: `baton sessions` says its next Codex session goes on with it, as `baton resume` does', async () => {
    const { repo, baton } = workspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const id = '019e1625-789d-76c0-80ab-3724b5ddb799';
    const rollout = join(tempDir('baton-tr-'), `rollout-2026-05-11T11-26-55-${id}.jsonl`);
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: new Date().toISOString(), type, payload });
    const plan = [
      { step: 'Add the retry', status: 'completed' },
      { step: 'Test the retry', status: 'in_progress' },
    ];
    appendFileSync(
      rollout,
      `${[
        line('session_meta', { id, cwd: repo, cli_version: '0.130.0' }),
        line('event_msg', { type: 'user_message', message: 'Add a retry to the uploader' }),
        line('response_item', {
          type: 'function_call',
          name: 'update_plan',
          arguments: JSON.stringify({ plan }),
          call_id: 'call_1',
        }),
        line('response_item', { type: 'function_call_output', call_id: 'call_1', output: 'Plan updated' }),
      ].join('\n')}\n`,
    );
    const codex = codexHook(baton, { repo, id, turn: 't1', transcript: rollout });
    type Row = { id: string; resumable: boolean; resume_by: string | null; continued_by: string | null };
    const rows = async () => (await baton(['sessions', '--json'])).json<{ sessions: Row[] }>().sessions;
    await codex('SessionStart', { source: 'startup' });
    await codex('UserPromptSubmit', { prompt: 'Add a retry to the uploader' });
    // the registry agents and statuslines read (sessions.json), and `baton session-status`, say what `baton sessions` says
    const registry = () =>
      (JSON.parse(readFileSync(join(repo, '.baton', 'sessions.json'), 'utf8')) as { sessions: Row[] })
        .sessions;
    const sessionStatus = async () =>
      (await baton(['session-status', '--json'])).json<Record<string, unknown>>();
    // the agent is at work on the request: nothing to resume
    expect(await rows()).toEqual([expect.objectContaining({ resumable: false, resume_by: null })]);
    expect(registry()).toEqual([expect.objectContaining({ resumable: false, resume_by: null })]);
    expect(await sessionStatus()).toMatchObject({
      state: 'running',
      is_agent_running: true,
      agent_running_note: `yes (Codex session ${id}, reported by its hooks)`,
      is_resumable: false,
    });
    const said = 'The retry is in; its test is next.';
    appendFileSync(rollout, `${line('event_msg', { type: 'agent_message', message: said })}\n`);
    expect((await codex('Stop', { stop_hook_active: false, last_assistant_message: said })).code).toBe(0);
    // the user quits Codex (it sends no SessionEnd): the next Codex session in the worktree goes on with the plan
    const [row] = await rows();
    expect(row).toMatchObject({
      resumable: true,
      resume_by: 'next_session',
      continued_by: 'the next Codex session in its worktree',
    });
    const table = (await baton(['sessions'])).stdout;
    expect(table).toContain(
      '1 workflow goes on in the next session of the agent whose hooks follow it, started in its worktree (no `baton resume` needed)',
    );
    expect(table).toMatch(new RegExp(`${row?.id}.*yes: the next Codex session in its worktree`));
    expect(table).not.toContain('baton resume -w');
    // `baton list` judges it the same way: at rest, not at work (its JSON keeps the raw status, and how it goes on)
    expect((await baton(['list'])).stdout).toMatch(new RegExp(`${row?.id}\\s+at rest\\s`));
    expect((await baton(['list', '--json'])).json<{ workflows: unknown[] }>().workflows).toEqual([
      expect.objectContaining({ id: row?.id, status: 'in_progress', resume_by: 'next_session' }),
    ]);
    // which is what `baton resume` says of it
    const resume = await baton(['resume']);
    expect(resume.code).toBe(3);
    expect(resume.stderr).toContain(
      `the next Codex session in its worktree ${repo} continues it with its briefing`,
    );
    expect(registry()).toEqual([
      expect.objectContaining({
        id: row?.id,
        resumable: true,
        resume_by: 'next_session',
        continued_by: 'the next Codex session in its worktree',
      }),
    ]);
    const ss = await sessionStatus();
    expect(ss).toMatchObject({
      state: 'open',
      is_agent_running: false,
      is_resumable: true,
      // nothing for `baton resume` to do
      needs_resume: false,
      resume_reason: 'agent_not_running',
      resume_by: 'next_session',
      continued_by: 'the next Codex session in its worktree',
    });
    expect(ss.agent_running_note).toBe(
      `no turn under way (Codex session ${id}: quit, or waiting for its user); the next Codex session in its worktree goes on with it`,
    );
    // once Baton's hooks are taken out of the worktree, its next session is not followed: the table says so
    expect((await baton(['init', '--undo', '--agent', 'codex'])).code).toBe(0);
    const unwired = (await baton(['sessions'])).stdout;
    expect(unwired).not.toContain('1 workflow goes on in the next session');
    expect(unwired).toMatch(new RegExp(`${row?.id}.* in_progress .*no: no hooks follow its worktree`));
    // `baton list` says the same: not at rest, with the same note
    const listed = (await baton(['list'])).stdout;
    expect(listed).toMatch(new RegExp(`^${row?.id} +in_progress `, 'm'));
    expect(listed).toContain(`note: no Baton hooks follow the agent sessions in ${repo} now`);
    expect(unwired).toContain(
      `note: no Baton hooks follow the agent sessions in ${repo} now (\`baton init --undo\`, or never set up there): ${row?.id} does not go on by itself; \`baton init\` there follows its sessions again, \`baton abandon <id>\` ends one`,
    );
    expect((await baton(['sessions', '--json'])).json<Record<string, unknown>>().not_followed).toEqual([
      { worktree: repo, workflows: [row?.id] },
    ]);
  });
});
