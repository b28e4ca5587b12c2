import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, fakeCodex, pidAlive, until } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

type Workspace = ReturnType<typeof agentWorkspace>;
interface Line {
  event: string;
  message?: string;
  workflow_id?: string;
  status?: string;
  resume_token?: string | null;
  fallback?: string | null;
}

/** The agent's own session id, as its first run named it (the token Baton saved). */
const savedToken = (ws: Workspace) =>
  ws.events().find((e) => e.type === 'agent.token_saved')?.data.resume_token as string | undefined;

/** The `agent.launched` events, oldest first: which session each run of the agent went on in, and why. */
const launches = (ws: Workspace) =>
  ws
    .events()
    .filter((e) => e.type === 'agent.launched')
    .map((e) => ({ resume_token: e.data.resume_token, fallback: e.data.fallback }));

/**
 * `baton run` again, one task: its NDJSON lines, the agent's argv (FAKE_LOG) and the first prompt it was handed.
 */
async function runAgain(ws: Workspace, agent: string, extra: Record<string, string> = {}) {
  const prompts = tempDir('baton-prompts-');
  const argv = join(prompts, 'argv.ndjson');
  const r = await ws.cli(['run', '--agent', agent, '--max-tasks', '1'], {
    FAKE_PROMPT_DIR: prompts,
    FAKE_LOG: argv,
    ...extra,
  });
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
  const runs = readFileSync(argv, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { args: string[]; resume: string | null });
  const first = readdirSync(prompts)
    .filter((f) => f.endsWith('.txt'))
    .sort()[0];
  return { ...r, lines, runs, prompt: first ? readFileSync(join(prompts, first), 'utf8') : '' };
}

const notes = (lines: Line[]) => lines.filter((l) => l.event === 'note').map((l) => l.message);

/** The result line of a Claude Code run stopped at its turn limit. */
const turnLimitEnd = {
  subtype: 'error_max_turns',
  is_error: true,
  num_turns: 4,
  errors: ['Reached maximum number of turns (3)'],
};

describe("`baton run` goes on in the agent's own session after it was cut short", () => {
  it('Claude Code cut off mid-turn (its process killed under a wrapper that exits 137): the next run resumes its session', async () => {
    // `claude` as many install it: a shell script that runs the real program (not exec'd), so a kill of the program
    // reaches Baton as the script's exit code 137, not as a signal
    const bin = join(tempDir('baton-bin-'), 'claude');
    writeFileSync(bin, `#!/bin/sh\n"${process.execPath}" "${fakeClaude}" "$@"\nexit $?\n`);
    chmodSync(bin, 0o755);
    const ws = agentWorkspace({ BATON_AGENT_BIN: bin });
    expect((await ws.create()).code).toBe(0);
    const pidFile = join(ws.home, 'agent.pid');
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code'], { FAKE_CUT: pidFile });
    const pid = await until('the agent to be mid-turn', async () =>
      existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : null,
    );
    process.kill(pid, 'SIGKILL');
    expect(await run.exited).toBe(1);
    expect(pidAlive(pid)).toBe(false);
    expect(run.out.stdout).toContain('the agent exited with code 137');
    const token = savedToken(ws);
    expect(token).toBeTruthy();

    const again = await runAgain(ws, 'claude-code');
    expect(again.code, again.stderr).toBe(0);
    const id = again.lines.at(-1)?.workflow_id;
    // said in the run's output, and recorded with the launch
    expect(notes(again.lines)).toContain(
      `the last run's agent was cut off in the middle of its turn on T1: going on in its own session (${token}; for a fresh one, \`baton pause -w ${id}\` before the run)`,
    );
    expect(again.runs[0]?.args).toEqual(expect.arrayContaining(['--resume', token]));
    expect(launches(ws).at(-1)).toEqual({ resume_token: token, fallback: null });
    // a short prompt: what happened and to go on, not the whole briefing again
    expect(again.prompt).toContain(
      '## Where your last run was cut off\n\nYour last run was cut off in the middle of its turn, before it finished (killed, or it crashed). Go on from where it stopped.',
    );
    expect(again.prompt).not.toContain('## Resume context');
    expect(again.prompt).not.toContain('## Plan');
    expect(again.lines.find((l) => l.event === 'task.finished')).toMatchObject({ outcome: 'done' });
  });

  it('Claude Code at its turn limit (error_max_turns): the next run resumes its session, told it stopped there', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const first = await ws.cli(['run', '--agent', 'claude-code'], { FAKE_END: JSON.stringify(turnLimitEnd) });
    expect(first.code, first.stderr).toBe(1);
    const token = savedToken(ws);

    const again = await runAgain(ws, 'claude-code');
    expect(again.code, again.stderr).toBe(0);
    expect(notes(again.lines)).toContain(
      `the last run's agent stopped at its turn limit on T1: going on in its own session (${token}; for a fresh one, \`baton pause -w ${again.lines.at(-1)?.workflow_id}\` before the run)`,
    );
    expect(again.runs[0]?.resume).toBe(token);
    expect(launches(ws).at(-1)).toEqual({ resume_token: token, fallback: null });
    expect(again.prompt).toContain(
      '## Where your last run was cut off\n\nYour last run stopped at its turn limit before its task was done. Go on from where you stopped.',
    );
    expect(again.prompt).not.toContain('## Resume context');
  });

  it('Codex crashed mid-turn (exit 1, no turn.completed): the next run resumes its thread, told it exited with code 1', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeCodex, CODEX_HOME: tempDir('codex-home-') });
    expect((await ws.create()).code).toBe(0);
    const first = await ws.cli(['run', '--agent', 'codex'], { FAKE_CRASH: '1' });
    expect(first.code, first.stderr).toBe(1);
    const token = savedToken(ws);
    expect(token).toBeTruthy();

    const again = await runAgain(ws, 'codex');
    expect(again.code, again.stderr).toBe(0);
    // how it ended, as it did: on its own exit code, not killed
    expect(notes(again.lines)).toContain(
      `the last run's agent exited with code 1 in the middle of its turn on T1: going on in its own session (${token}; for a fresh one, \`baton pause -w ${again.lines.at(-1)?.workflow_id}\` before the run)`,
    );
    expect(again.runs[0]?.args.slice(-3)).toEqual(['resume', token, '-']);
    expect(launches(ws).at(-1)).toEqual({ resume_token: token, fallback: null });
    expect(again.prompt).toContain(
      'Your last run exited with code 1 in the middle of its turn, before it finished (an error it did not report). Go on from where it stopped.',
    );
  });

  it('failed before it named its session (a bad flag, a wrapper error): no turn was cut off, the next run starts fresh', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const first = await ws.cli(['run', '--agent', 'claude-code'], {
      FAKE_CRASH: '1',
      FAKE_CRASH_AT: 'start',
    });
    expect(first.code, first.stderr).toBe(1);
    expect(savedToken(ws)).toBeUndefined();

    const again = await runAgain(ws, 'claude-code');
    expect(again.code, again.stderr).toBe(0);
    expect(notes(again.lines).join('\n')).not.toContain("the last run's agent");
    expect(again.runs[0]?.resume).toBeNull();
    expect(launches(ws).at(-1)).toEqual({ resume_token: null, fallback: null });
    // the task's own prompt, with what the failed attempt said
    expect(again.prompt).toContain('# Workflow: Three tasks');
    expect(again.prompt).toContain('An earlier attempt at this task failed');
  });

  it('an agent that exits 0 without its result line was not cut off (no CLI of that format): the next run starts fresh', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    expect((await ws.cli(['run', '--agent', 'claude-code'], { FAKE_CRASH: '0' })).code).toBe(1);
    expect(savedToken(ws)).toBeTruthy();

    const again = await runAgain(ws, 'claude-code');
    expect(again.code, again.stderr).toBe(0);
    expect(notes(again.lines).join('\n')).not.toContain("the last run's agent");
    expect(again.runs[0]?.resume).toBeNull();
    expect(launches(ws).at(-1)).toEqual({ resume_token: null, fallback: null });
  });

  it('its session cannot be resumed: the same run falls back to a fresh session with the compiled context, and says so', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    expect(
      (await ws.cli(['run', '--agent', 'claude-code'], { FAKE_END: JSON.stringify(turnLimitEnd) })).code,
    ).toBe(1);
    const token = savedToken(ws);

    const again = await runAgain(ws, 'claude-code', { FAKE_FAIL_RESUME: '1' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.runs.map((r) => r.resume)).toEqual([token, null]);
    const fallback = `the agent's own resume failed: No conversation found with session ID: ${token} (the agent exited with code 1)`;
    expect(again.stderr).toContain(
      `task T1: ${fallback}; continuing in a new driver session with the compiled context`,
    );
    expect(launches(ws).slice(-2)).toEqual([
      { resume_token: token, fallback: null },
      { resume_token: null, fallback },
    ]);
    expect(again.lines.find((l) => l.event === 'task.finished')).toMatchObject({ outcome: 'done' });
  });
});

describe.each([
  { agent: 'claude-code', bin: fakeClaude, env: {} as Record<string, string> },
  { agent: 'codex', bin: fakeCodex, env: { CODEX_HOME: tempDir('codex-home-') } },
])('`baton run` that stopped cleanly at a task boundary ($agent)', ({ agent, bin, env }) => {
  it("the next run goes on in the agent's own conversation; after a person's resume, a fresh one with the briefing", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: bin, ...env });
    expect((await ws.create()).code).toBe(0);
    const first = await runAgain(ws, agent);
    expect(first.code, first.stderr).toBe(0);
    expect(first.runs.map((r) => r.resume)).toEqual([null]);
    expect((await ws.cli(['status'])).json<{ workflow: { status: string } }>().workflow.status).toBe(
      'paused',
    );
    const token = savedToken(ws);
    expect(token).toBeTruthy();

    // --max-tasks 1 again: T2 in the conversation T1 was done in, its prompt short (the conversation has the rest)
    const second = await runAgain(ws, agent);
    expect(second.code, second.stderr).toBe(0);
    expect(second.runs.map((r) => r.resume)).toEqual([token]);
    expect(second.lines.find((l) => l.event === 'task.started')).toMatchObject({ resume_token: token });
    expect(second.prompt).toContain('T2');
    expect(second.prompt).not.toContain('## Resume context');
    expect(launches(ws).at(-1)).toEqual({ resume_token: token, fallback: null });

    // a person's resume asks for a fresh session: the next run starts one, handed the briefing
    expect((await ws.cli(['resume'])).code).toBe(0);
    const third = await runAgain(ws, agent);
    expect(third.code, third.stderr).toBe(0);
    expect(third.runs.map((r) => r.resume)).toEqual([null]);
    expect(third.prompt).toContain('## Resume context');
  });
});
