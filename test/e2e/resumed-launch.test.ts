import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

// `claude --resume <id>` fires two SessionStarts (anthropics/claude-code #23932, #24265): `resume` with the
// conversation's id, and `startup` with a new id whose transcript holds nothing. Baton follows the first alone.

type Json = Record<string, any>;

const now = () => new Date().toISOString();
const line = (sessionId: string, type: string, message: Json) =>
  JSON.stringify({ type, timestamp: now(), sessionId, message });

function workspace() {
  const { repo, env, baton } = hookWorkspace();
  const hook = (event: string, fields: Json) =>
    baton(['hook', event], JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }));
  return { repo, env, hook };
}

/**
 * A conversation that asked for something and got an answer, then ended (the user quit); with `todos`, the agent's
 * task list as it left it.
 */
async function earlierConversation(w: ReturnType<typeof workspace>, id: string, todos?: Json[]) {
  const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
  const request = 'add a /health endpoint that reports the database state';
  const list = todos
    ? [
        line(id, 'assistant', {
          id: 'm0',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu1', name: 'TodoWrite', input: { todos } }],
        }),
      ]
    : [];
  writeFileSync(
    path,
    `${[
      line(id, 'user', { role: 'user', content: request }),
      ...list,
      line(id, 'assistant', {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'text', text: 'I added the route; its test comes next.' }],
      }),
    ].join('\n')}\n`,
  );
  await w.hook('SessionStart', { session_id: id, source: 'startup', transcript_path: path });
  await w.hook('UserPromptSubmit', { session_id: id, transcript_path: path, prompt: request });
  await w.hook('Stop', { session_id: id, transcript_path: path, stop_hook_active: false });
  await w.hook('SessionEnd', { session_id: id, transcript_path: path, reason: 'prompt_input_exit' });
  return path;
}

/**
 * A stand-in for Claude Code launched with `args`: a program named `claude` that runs the SessionStart hook once per
 * payload, in order, as its launch does, and exits. Each hook's stdout and stderr.
 */
async function launch(w: ReturnType<typeof workspace>, args: string[], payloads: Json[]) {
  const dir = tempDir('baton-launch-');
  payloads.forEach((p, i) =>
    writeFileSync(
      join(dir, `${i}.json`),
      JSON.stringify({ cwd: w.repo, hook_event_name: 'SessionStart', ...p }),
    ),
  );
  const claude = join(tempDir('baton-agent-'), 'claude');
  writeFileSync(
    claude,
    `#!/bin/bash\nfor i in $(seq 0 ${payloads.length - 1}); do "${process.execPath}" "${batonBin}" hook SessionStart < "${dir}/$i.json" > "${dir}/$i.out" 2> "${dir}/$i.err"; done\n`,
  );
  chmodSync(claude, 0o755);
  const child = spawn(claude, args, { cwd: w.repo, env: hermeticEnv(w.env), stdio: 'ignore' });
  const code = await new Promise((r) => child.once('exit', r));
  expect(code).toBe(0);
  return payloads.map((_, i) => ({
    stdout: readFileSync(join(dir, `${i}.out`), 'utf8'),
    stderr: readFileSync(join(dir, `${i}.err`), 'utf8'),
  }));
}

const briefing = (stdout: string) =>
  stdout.trim()
    ? ((JSON.parse(stdout) as { hookSpecificOutput?: Json }).hookSpecificOutput?.additionalContext ?? '')
    : '';

describe.runIf(process.platform === 'linux')('a conversation resumed with claude --resume', () => {
  it('follows the resume event alone, not the extra startup event with a new, empty session', async () => {
    const w = workspace();
    const path = await earlierConversation(w, 'conv-0001');
    const [extra, resumed] = await launch(
      w,
      ['--resume', 'conv-0001'],
      [
        {
          session_id: 'spur-0002',
          source: 'startup',
          transcript_path: join(tempDir('baton-transcript-'), 'spur-0002.jsonl'),
        },
        { session_id: 'conv-0001', source: 'resume', transcript_path: path },
      ],
    );
    expect(extra!.stdout.trim()).toBe('');
    expect(extra!.stderr).toMatch(/also fires a startup event with a new, empty session.*#23932/);
    // the conversation left off where the quit's snapshot saw it: its history holds the work, not briefed again
    expect(briefing(resumed!.stdout)).toMatch(
      /^Baton follows this conversation as workflow \S+ \(session 2\)\. Nothing was recorded in it since/,
    );
    // one workflow, and one session more, the resumed conversation's (the spurious one would make it three, or a
    // workflow of its own); the hook log holds the resume event's outcome
    const all = (await runCli(['sessions', '--all', '--json'], { cwd: w.repo, env: w.env })).json<Json>();
    expect(all.sessions).toHaveLength(1);
    const status = (await runCli(['status', '--json'], { cwd: w.repo, env: w.env })).json<Json>();
    expect(status.workflow.session_count).toBe(2);
    const doctor = await runCli(['doctor'], { cwd: w.repo, env: w.env });
    expect(doctor.stdout).not.toMatch(/#23932/);
  });

  it('follows a plain launch, and a startup whose transcript already holds the conversation', async () => {
    const w = workspace();
    const path = await earlierConversation(w, 'conv-0003');
    // without a resuming flag, a startup is a new conversation: followed as ever
    const [plain] = await launch(
      w,
      [],
      [{ session_id: 'new-0004', source: 'startup', transcript_path: join(tempDir('t-'), 'new-0004.jsonl') }],
    );
    expect(plain!.stderr).not.toMatch(/#23932/);
    expect(briefing(plain!.stdout)).toContain('add a /health endpoint');
    // a Claude Code that fires one startup with the resumed conversation's own transcript: followed
    const [single] = await launch(
      w,
      ['-c'],
      [{ session_id: 'conv-0003', source: 'startup', transcript_path: path }],
    );
    expect(single!.stderr).not.toMatch(/#23932/);
    expect(briefing(single!.stdout)).toContain('add a /health endpoint');
  });
});

describe('a conversation resumed after another was opened and quit with nothing said', () => {
  it('is not briefed again: the other recorded nothing, its own history holds the work', async () => {
    const w = workspace();
    const id = 'conv-0005';
    const path = await earlierConversation(w, id, [
      { content: 'Add the /health route', status: 'completed', activeForm: 'Adding the route' },
      { content: 'Test the /health route', status: 'pending', activeForm: 'Testing the route' },
    ]);
    // `claude` opened by mistake and quit at once (then `claude --resume`)
    const other = join(tempDir('baton-transcript-'), 'other-0006.jsonl');
    const opened = await w.hook('SessionStart', {
      session_id: 'other-0006',
      source: 'startup',
      transcript_path: other,
    });
    expect(briefing(opened.stdout)).toContain('Test the /health route');
    await w.hook('SessionEnd', {
      session_id: 'other-0006',
      transcript_path: other,
      reason: 'prompt_input_exit',
    });
    const resumed = await w.hook('SessionStart', { session_id: id, source: 'resume', transcript_path: path });
    expect(briefing(resumed.stdout)).toMatch(
      /^Baton follows this conversation as workflow \S+ \(session 3\)\. Nothing was recorded in it since/,
    );
    expect(resumed.stderr).toMatch(/no context injected, its history holds the work/);
  });
});

describe('a conversation resumed after a decision was recorded from a terminal before it quit', () => {
  it('is briefed: the quit took a snapshot after the decision, but its history does not hold it', async () => {
    const w = workspace();
    const id = 'conv-0007';
    const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
    const request = 'add a /health endpoint that reports the database state';
    writeFileSync(path, `${line(id, 'user', { role: 'user', content: request })}\n`);
    await w.hook('SessionStart', { session_id: id, source: 'startup', transcript_path: path });
    await w.hook('UserPromptSubmit', { session_id: id, transcript_path: path, prompt: request });
    await w.hook('Stop', { session_id: id, transcript_path: path, stop_hook_active: false });
    // while the conversation is open, between its last turn and the quit
    const cli = (args: string[]) => runCli(args, { cwd: w.repo, env: w.env });
    expect(
      (await cli(['record', 'decision', '--type', 'library', '--description', 'Use node:test, not jest']))
        .code,
    ).toBe(0);
    await w.hook('SessionEnd', { session_id: id, transcript_path: path, reason: 'prompt_input_exit' });
    const resumed = await w.hook('SessionStart', { session_id: id, source: 'resume', transcript_path: path });
    expect(briefing(resumed.stdout)).toContain('Use node:test, not jest');
    expect(resumed.stderr).not.toMatch(/its history holds the work/);
  });
});
