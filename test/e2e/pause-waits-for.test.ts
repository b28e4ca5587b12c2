import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, stepsSession } from '../helpers/hook-workspace.js';
import { mcpClient } from '../helpers/mcp-client.js';

// What a pause waits for is decided once (core `pauseWaitsFor`): `baton pause`, `baton status` and its `--json`
// (`pause_waits_for`) say the one answer, whatever state the request meets.

type Json = Record<string, any>;

/** A Claude Code conversation the hooks follow, whose agent keeps its own task list (TodoWrite). */
function followed() {
  const ws = hookWorkspace();
  const { baton } = ws;
  const { hook, todo } = stepsSession(ws);
  const status = async () => (await baton(['status', '--json'])).json<Json>();
  return { baton, hook, todo, status };
}

const turn = { session_number: 1, agent: 'claude-code' };

describe('what a requested pause waits for, said one way', () => {
  it('asked mid-turn with no task, it waits for the turn alone, though the agent starts a task in that turn', async () => {
    const { baton, hook, todo, status } = followed();
    await hook('UserPromptSubmit', { prompt: 'Fix the flaky upload test' });
    const asked = await baton(['pause', '--reason', 'meeting']);
    expect(asked.stdout).toMatch(/the Claude Code turn under way \(session 1\) is let finish/);
    expect((await status()).pause_waits_for).toEqual({ tasks: [], turn });
    // the agent's list starts T1: no boundary of it is the pause's (it waits for the turn's end only)
    expect((await todo('t1', 'in_progress', 'pending')).code).toBe(0);
    const s = await status();
    expect(s.tasks.map((t: Json) => t.status)).toEqual(['in_progress', 'pending']);
    expect(s.pause_waits_for).toEqual({ tasks: [], turn });
    const again = await baton(['pause', '--json']);
    expect(again.json<Json>()).toMatchObject({
      outcome: 'already_requested',
      waiting_for: [],
      waiting_for_turn: turn,
    });
    expect((await baton(['pause'])).stdout).toMatch(
      /: the Claude Code turn under way \(session 1\) is let finish: the pause takes effect when the agent's turn ends/,
    );
    expect((await baton(['status'])).stdout).toMatch(
      /status: in_progress \(pause requested, when the agent's turn ends\)\n/,
    );
    // and so it does: T2's start is no boundary, the Stop is
    expect((await todo('t2', 'completed', 'in_progress')).stderr).not.toMatch(/paused/);
    await hook('Stop', { last_assistant_message: 'Done with step 1.' });
    expect((await status()).workflow.status).toBe('paused');
  });

  it("asked with a task under way mid-turn, once the list finished every task it waits for the turn's end", async () => {
    const { baton, hook, todo, status } = followed();
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'in_progress', 'pending');
    expect((await baton(['pause', '--reason', 'lunch'])).stdout).toMatch(
      /it pauses when T1 finishes or when the Claude Code turn under way \(session 1\) ends, whichever comes first/,
    );
    expect((await status()).pause_waits_for).toEqual({ tasks: ['T1'], turn });
    // the list finishes both: the agent is let say what it did, so the pause waits for its turn's end
    expect((await todo('t2', 'completed', 'completed')).stderr).toMatch(
      /takes effect when the agent's turn ends/,
    );
    const s = await status();
    expect(s.workflow.status).toBe('in_progress');
    expect(s.pause_waits_for).toEqual({ tasks: [], turn });
    expect((await baton(['status'])).stdout).toMatch(
      /status: in_progress \(pause requested, when the agent's turn ends\)\n/,
    );
    // asking again changes nothing: the agent is not cut off before its last message
    expect((await baton(['pause'])).stdout).toMatch(
      /^a pause is already requested for wf-\S+ \(reason: lunch, [^)]+\): the Claude Code turn under way \(session 1\) is let finish/,
    );
    expect((await status()).workflow.status).toBe('in_progress');
    await hook('Stop', { last_assistant_message: 'Both steps are done.' });
    expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    expect((await status()).pause_waits_for).toBeNull();
  });

  it("once the list finished every task it waits for the turn's end, though the agent then takes on another step", async () => {
    const { baton, hook, todo, status } = followed();
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'in_progress', 'pending');
    await baton(['pause', '--reason', 'lunch']);
    await todo('t2', 'completed', 'completed');
    expect((await baton(['status'])).stdout).toMatch(/\(pause requested, when the agent's turn ends\)\n/);
    // the agent adds a third step and starts it: what status said stands, it is no boundary of the pause's
    const more = await todo('t3', 'completed', 'completed', 'in_progress');
    expect(more.stderr).not.toMatch(/paused/);
    expect(more.stdout.trim()).toBe('');
    const s = await status();
    expect(s.workflow.status).toBe('in_progress');
    expect(s.tasks.map((t: Json) => t.status)).toEqual(['done', 'done', 'in_progress']);
    expect(s.pause_waits_for).toEqual({ tasks: [], turn });
    expect((await baton(['status'])).stdout).toMatch(/\(pause requested, when the agent's turn ends\)\n/);
    await hook('Stop', { last_assistant_message: 'Both steps are done; step 3 is under way.' });
    const paused = await status();
    expect(paused.workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    expect(paused.warnings).toEqual(["paused at the end of the agent's turn while T3 was in progress"]);
  });

  it("the last task completed with `baton task done` mid-turn: the pause waits for the turn's end, as the list's would", async () => {
    const { baton, hook, todo, status } = followed();
    await hook('UserPromptSubmit', { prompt: 'Do the two steps' });
    await todo('t1', 'completed', 'in_progress');
    await baton(['pause', '--reason', 'lunch']);
    const done = await baton(['task', 'done', 'T2', '--json']);
    expect(done.code).toBe(0);
    // the completion says the pause waits, and for what, as the status does
    expect(done.json<Json>()).toMatchObject({
      paused: false,
      pause_waits_for: { tasks: [], turn },
      pause_waits: "pause requested, when the agent's turn ends",
    });
    expect((await status()).pause_waits_for).toEqual({ tasks: [], turn });
    // the agent's list goes on with a step of its own: the pause still waits for the turn
    expect((await todo('t2', 'completed', 'completed', 'in_progress')).stderr).not.toMatch(/paused/);
    expect((await status()).workflow.status).toBe('in_progress');
    await hook('Stop', { last_assistant_message: 'Both steps are done.' });
    expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
  });

  it('a task done while another is under way says the pause waits for that one, by hand and through MCP alike', async () => {
    const ws = hookWorkspace();
    const { baton } = ws;
    const tasks = ['--task', 'T1:Build', '--task', 'T2:Test', '--task', 'T3:Ship'];
    expect((await baton(['create', '--title', 'by hand', ...tasks])).code).toBe(0);
    for (const t of ['T1', 'T2', 'T3']) expect((await baton(['task', 'start', t])).code).toBe(0);
    expect((await baton(['pause'])).stdout).toMatch(/it pauses when T1, T2, T3 finish/);
    const done = await baton(['task', 'done', 'T1']);
    expect(done.stdout).toContain('not paused yet: pause requested, when T2, T3 finish');
    expect((await baton(['status'])).stdout).toMatch(
      /status: in_progress \(pause requested, when T2, T3 finish\)\n/,
    );
    // the agent completing one through its MCP tool is told the same
    const client = await mcpClient(ws.repo, ws.env);
    try {
      const r = (await client.callTool({ name: 'complete_task', arguments: { task_id: 'T2' } })) as {
        content: { text: string }[];
      };
      expect(JSON.parse(r.content[0]!.text)).toMatchObject({
        paused: false,
        pause_waits_for: { tasks: ['T3'], turn: null },
        pause_waits: 'pause requested, when T3 finishes',
      });
    } finally {
      await client.close();
    }
  });

  it("a pause asked with no task list between the agent's turns takes effect at once: nothing to wait for", async () => {
    const { baton, hook, status } = followed();
    await hook('UserPromptSubmit', { prompt: 'What does this repository do?' });
    await hook('Stop', { last_assistant_message: 'It parses dates.' });
    expect((await status()).pause_waits_for).toBeNull();
    expect((await baton(['pause'])).stdout).toMatch(/^paused wf-\S+ \(snapshot snap-/);
    expect((await status()).pause_waits_for).toBeNull();
  });

  it('a task under way in a session driven by hand: the pause waits for its boundary', async () => {
    const { baton, status } = followed();
    expect((await baton(['create', '--title', 'by hand', '--task', 'T1:Build'])).code).toBe(0);
    expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
    expect((await status()).pause_waits_for).toEqual({ tasks: ['T1'], turn: null });
    expect((await baton(['pause'])).stdout).toMatch(
      /^pause requested for wf-\S+: it pauses when T1 finishes/,
    );
    expect((await status()).pause_waits_for).toEqual({ tasks: ['T1'], turn: null });
    expect((await baton(['status'])).stdout).toMatch(
      /status: in_progress \(pause requested, when T1 finishes\)\n/,
    );
  });
  it('a request a transcript read in afterwards left with nothing to wait for says so, and `baton pause` takes it', async () => {
    const { baton, status } = followed();
    expect((await baton(['create', '--title', 'by hand', '--task', 'T1:Build'])).code).toBe(0);
    expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
    expect((await baton(['pause', '--reason', 'lunch'])).stdout).toMatch(/it pauses when T1 finishes/);
    // a transcript read into the session (no plan in it): no agent works on it, no boundary and no turn's end will come
    const rollout = join(tempDir('rollout-'), 'rollout.jsonl');
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: new Date().toISOString(), type, payload });
    writeFileSync(
      rollout,
      `${[
        line('session_meta', {
          id: '019e0000-0000-7000-8000-000000000001',
          cwd: '/elsewhere',
          cli_version: '0.130.0',
        }),
        line('event_msg', { type: 'user_message', message: 'Look at the build' }),
        line('event_msg', { type: 'agent_message', message: 'The build is fine.' }),
      ].join('\n')}\n`,
    );
    expect((await baton(['import', 'codex', rollout])).code).toBe(0);
    const s = await status();
    expect(s.workflow).toMatchObject({ status: 'in_progress', pause_requested: true });
    expect(s.tasks.some((t: Json) => t.status === 'in_progress')).toBe(true);
    expect(s.pause_waits_for).toBeNull();
    expect((await baton(['status'])).stdout).toMatch(
      /status: in_progress \(pause requested, nothing left to wait for: `baton pause` takes it now\)\n/,
    );
    expect((await baton(['pause'])).stdout).toMatch(
      /^paused wf-\S+ \(snapshot snap-[^)]+\)\nwarning: paused while/,
    );
  });
});
