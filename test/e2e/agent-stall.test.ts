import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';

// An agent that hangs (alive, printing nothing: a stuck API stream, a wedged process) is stopped after
// --stall-timeout, and its task goes on in the agent's own session; a task whose agent hangs every time fails, with
// that cause, after two tries more, its hang listed in the briefing; the next run takes it up in a fresh session.

interface Report {
  status: string;
  tasks: { id: string; outcome: string; detail: string | null }[];
  failed: boolean;
}

const runs = (log: string) =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { task: string | null; resume: string | null });

describe('baton run with an agent that hangs', () => {
  it('stops the hung agent and goes on with its task in its own session', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await w.create();
    const log = join(tempDir('fake-log-'), 'runs.jsonl');
    const r = await w.said(
      ['run', '--agent', 'claude-code', '--heartbeat', '100ms', '--stall-timeout', '1s'],
      {
        FAKE_LOG: log,
        FAKE_HANG_ONCE: join(tempDir('fake-hang-'), 'hung'),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /task T1: the agent printed nothing for 0m0[1-9]s \(stall timeout 0m01s\): it was stopped as hung; going on in its own session \(1 of 2\)/,
    );
    // T1 ran twice, the second time in the conversation that hung; then T2 and T3
    const all = runs(log);
    expect(all.map((x) => x.task)).toEqual(['T1', 'T1', 'T2', 'T3']);
    expect(all[1]!.resume).not.toBeNull();
    expect(all[0]!.resume).toBeNull();
    expect(w.count('workflow.completed')).toBe(1);
  });

  it('tells the agent it hung, in what call, and what git has from it, as after a crash', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await w.create();
    const prompts = tempDir('baton-prompts-');
    // it commits, then hangs before its call returns: no output of it ever says the commit
    const r = await w.said(
      ['run', '--agent', 'claude-code', '--heartbeat', '100ms', '--stall-timeout', '1s', '--max-tasks', '1'],
      {
        FAKE_PROMPT_DIR: prompts,
        FAKE_COMMAND: 'git commit --allow-empty -q -m "Add the schema" && npm run test:integration',
        FAKE_COMMAND_RUN: '1',
        FAKE_HANG_ONCE: join(tempDir('fake-hang-'), 'hung'),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const [, second] = readdirSync(prompts)
      .sort()
      .map((f) => readFileSync(join(prompts, f), 'utf8'));
    expect(second).toMatch(
      /## Where your last run was cut off\n\nYour last run hung: the agent printed nothing for 0m0\ds \(stall timeout 0m01s\): it was stopped as hung\. A call it was inside may hang again/,
    );
    expect(second).toContain(
      'The transcript ends before this call returned (check whether it ran): `Bash: git commit --allow-empty -q -m "Add the schema" && npm run test:integration`',
    );
    // the hung run's commit (the run that went on made one more)
    const [hash] = gitIn(w.repo, 'log', '--reverse', '--format=%h', '--grep', 'Add the schema')
      .trim()
      .split('\n');
    expect(second).toMatch(
      new RegExp(`^- \\[commit\\] ${hash!}[0-9a-f]* Add the schema \\(on the branch`, 'm'),
    );
  });

  it('fails the task with the hang as its cause when its agent hangs every time', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await w.create();
    const log = join(tempDir('fake-log-'), 'runs.jsonl');
    const r = await w.cli(
      ['run', '--agent', 'claude-code', '--heartbeat', '100ms', '--stall-timeout', '1s'],
      {
        FAKE_LOG: log,
        FAKE_HANG_IN_CALL_MS: '600000',
      },
    );
    expect(r.code, r.stderr).toBe(1);
    const report = r.json<Report>();
    expect(report.tasks).toEqual([
      expect.objectContaining({
        id: 'T1',
        outcome: 'killed',
        detail: expect.stringMatching(/printed nothing for/),
      }),
    ]);
    expect(runs(log).map((x) => x.task)).toEqual(['T1', 'T1', 'T1']);
    const exited = w.events().filter((e) => e.type === 'agent.exited');
    expect(exited).toHaveLength(3);
    expect(String(exited[2]!.data.message)).toMatch(/it was stopped as hung/);

    // the hang is an error the briefing lists, once
    const context = await w.said(['context']);
    expect(context.stdout).toMatch(
      /### Errors Encountered\n {2}! UNRESOLVED: agent_hung: the agent printed nothing for 0m0[1-9]s \(stall timeout 0m01s\): it was stopped as hung/,
    );
    expect(w.events().filter((e) => e.type === 'error.recorded')).toHaveLength(1);

    // the next run does not go on in the session that hung every time: a fresh one, with the briefing
    const again = await w.said(['run', '--agent', 'claude-code', '--max-tasks', '1'], { FAKE_LOG: log });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      "the last run's agent was stopped as hung (it printed nothing for its stall timeout) on T1: it may hang again in its own session, so a fresh session goes on with the compiled context",
    );
    expect(runs(log).at(-1)).toMatchObject({ task: 'T1', resume: null });
    // done at last: the hang is behind it, no longer open
    const resolved = w.events().filter((e) => e.type === 'error.resolved');
    expect(resolved.map((e) => e.data.resolution)).toEqual(['workaround']);
  });

  it('never stops a quiet agent with --stall-timeout 0', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    await w.create();
    const log = join(tempDir('fake-log-'), 'runs.jsonl');
    // quiet for 1.5 s inside its call, a stall timeout of 0: it is left to work
    const r = await w.said(
      ['run', '--agent', 'claude-code', '--heartbeat', '100ms', '--stall-timeout', '0', '--max-tasks', '1'],
      {
        FAKE_LOG: log,
        FAKE_HANG_IN_CALL_MS: '1500',
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/printed nothing/);
    expect(runs(log)).toHaveLength(1);
  });
});
