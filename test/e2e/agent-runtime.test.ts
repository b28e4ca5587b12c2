import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, fakeCodex, until } from '../helpers/agent-workspace.js';
import { batonBin } from '../helpers/cli.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';

const setup = () => agentWorkspace({ BATON_AGENT_BIN: fakeClaude });

describe('baton run with a fake Claude Code replaying recorded stream-json', () => {
  it('drives the agent through three tasks, keeps the resume token, continues the driver session with --resume', async () => {
    const { cli, home, events, create } = setup();
    expect((await create()).code).toBe(0);
    const log = join(home, 'agent.log');
    const r = await cli(['run', '--agent', 'claude-code', '--context-window', '200000'], {
      FAKE_LOG: log,
      FAKE_COMMAND: 'git commit --allow-empty -m "step"',
      FAKE_COMMAND_RUN: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<{
      workflow_id: string;
      status: string;
      tasks: { id: string; outcome: string }[];
    }>();
    expect(report.status).toBe('completed');
    expect(report.tasks.map((t) => t.id)).toEqual(['T1', 'T2', 'T3']);
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { resume: string | null });
    expect(runs[0]?.resume).toBeNull();
    // The second task resumes exactly the session the first one reported (and Baton saved).
    const saved = events()
      .filter((e) => e.type === 'agent.token_saved')
      .map((e) => e.data.resume_token);
    expect(saved.length).toBeGreaterThanOrEqual(1);
    expect(runs[1]?.resume).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved).toContain(runs[1]?.resume);
    const types = events().map((e) => e.type);
    expect(types).toContain('agent.launched');
    expect(types).toContain('agent.token_saved');
    expect(types.filter((t) => t === 'side_effect.recorded').length).toBe(3);
    const ex = (await cli(['executors', 'list'])).json<{ resume_token: string | null; status: string }[]>();
    expect(saved).toContain(ex[0]?.resume_token);
    // The ledger reaches the resume context, so a later session does not commit again.
    const context = (await cli(['context', '-w', report.workflow_id])).json<{ markdown: string }>().markdown;
    expect(context).toContain('### Already Done (do not redo)');
    expect(context.match(/^ {2}- commit [0-9a-f]{7,} step$/gm)).toHaveLength(3);
    // named again once it is completed: nothing left to run, said so (no driving, no new session)
    const again = await cli(['run', '-w', report.workflow_id, '--agent', 'claude-code']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`${report.workflow_id} is completed: there is nothing left to run`);
  });

  it('goes on when the agent finished its task itself (MCP complete_task, `baton task done`): no second completion', async () => {
    const { said, create } = setup();
    expect((await create()).code).toBe(0);
    // the agent of T1 marks it done with Baton's own command; later tasks' tries fail (T1 is done), harmlessly
    const r = await said(['run', '--agent', 'claude-code', '--context-window', '200000'], {
      FAKE_COMMAND: `"${process.execPath}" "${batonBin}" task done T1 || true`,
      FAKE_COMMAND_RUN: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("task T1 was done already (by the agent's MCP call, or a command): going on");
    expect(r.stdout).toMatch(/completed/);
  });

  it('auto-pauses at the task boundary with trigger exhaustion once usage passes 85% (one session allowed)', async () => {
    const { cli, events, create } = setup();
    await create();
    const r = await cli(
      ['run', '--agent', 'claude-code', '--context-window', '100000', '--max-sessions', '1'],
      {
        FAKE_CONTEXT_TOKENS: '90000',
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<{ status: string; pause_trigger: string; tasks: unknown[]; stopped: string }>();
    expect(report.status).toBe('paused');
    expect(report.pause_trigger).toBe('exhaustion');
    expect(report.stopped).toBe('paused (exhaustion): --max-sessions 1 reached');
    expect(report.tasks).toHaveLength(1);
    const types = events().map((e) => e.type);
    expect(types).toContain('capacity.warned');
  });

  it('says the context warning once per session and each compaction once, in the lines `baton run` prints', async () => {
    const { said, events, create } = setup();
    await create();
    // 75% of the window on every reading of every task: past the warning (70%), short of the pause (85%); each task's
    // agent compacts its context once
    const r = await said(['run', '--agent', 'claude-code', '--context-window', '100000'], {
      FAKE_CONTEXT_TOKENS: '75000',
      FAKE_COMPACT: 'Wrote the parser; the tests pass.',
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    // one Baton session: one warning (as the event log has one), not one per reading or per task
    expect(lines.filter((l) => l.includes('past the warning'))).toEqual([
      'baton run: context 75% full (75000 of 100000 tokens): past the warning at 70%; past 85% the workflow pauses at the task boundary',
    ]);
    expect(events().filter((e) => e.type === 'capacity.warned')).toHaveLength(1);
    expect(lines.filter((l) => l.includes('compacted'))).toEqual(
      ['T1', 'T2', 'T3'].map(
        (t) => `baton run: task ${t}: the agent compacted its context (75000 tokens before)`,
      ),
    );
  });

  it("records the agent's context while its task goes on, its totals once when it ends", async () => {
    const ws = setup();
    await ws.create();
    const gate = join(tempDir('baton-gate-'), 'open');
    const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--max-tasks', '1'], {
      FAKE_CONTEXT_TOKENS: '50000',
      FAKE_GATE: gate,
    });
    try {
      // the agent waits at its gate, mid-task: the context it reported is shown
      const usage = await until('usage recorded mid-task', async () =>
        ws.events().find((e) => e.type === 'usage.recorded'),
      );
      expect(usage.data.usage).toMatchObject({ context_tokens: 50000, tokens_used: 0 });
      expect(ws.count('task.completed')).toBe(0);
      const status = (await ws.cli(['status'])).json<{ usage: { context_tokens: number | null } }>();
      expect(status.usage.context_tokens).toBe(50000);
    } finally {
      writeFileSync(gate, '');
    }
    expect(await run.exited, run.out.stderr).toBe(0);
    // the totals are the run's own, as its last reading says them, not counted twice
    const readings = ws.events().filter((e) => e.type === 'usage.recorded');
    expect(readings.length).toBe(2);
    const final = (await ws.cli(['status'])).json<{ usage: { tokens_used: number } }>();
    expect(final.usage.tokens_used).toBe(
      (readings.at(-1)?.data.usage as { tokens_used: number }).tokens_used,
    );
  });

  it("Codex: a thread resumed from task to task reports its totals; each run's tokens count once", async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeCodex });
    expect((await ws.create()).code).toBe(0);
    const log = join(ws.home, 'agent.log');
    // no rollout: the totals are those of `turn.completed` (the fake's rollout replays one recording's counts)
    const r = await ws.cli(['run', '--agent', 'codex', '--max-tasks', '2'], {
      CODEX_HOME: tempDir('codex-home-'),
      FAKE_LOG: log,
      FAKE_ROLLOUT: 'none',
    });
    expect(r.code, r.stderr).toBe(0);
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { resume: string | null });
    expect(runs.map((x) => x.resume !== null)).toEqual([false, true]);
    // the thread's totals after each run: the second counts the first's tokens too
    const totals = ws
      .events()
      .filter((e) => e.type === 'usage.recorded' && (e.data.usage as { tokens_used: number }).tokens_used > 0)
      .map((e) => (e.data.usage as { tokens_used: number }).tokens_used);
    expect(totals).toHaveLength(2);
    expect(totals[1]).toBe(2 * totals[0]!);
    // the workflow used what the thread did, not both totals added up
    const status = (await ws.cli(['status'])).json<{ usage: { tokens_used: number; llm_calls: number } }>();
    expect(status.usage.tokens_used).toBe(totals[1]);
  });

  it('falls back to a new driver session with the compiled context when the agent cannot resume its own session', async () => {
    const { cli, home, events, create } = setup();
    await create();
    const log = join(home, 'agent.log');
    const r = await cli(['run', '--agent', 'claude-code'], { FAKE_FAIL_RESUME: '1', FAKE_LOG: log });
    expect(r.code, r.stderr).toBe(0);
    const report = r.json<{ status: string; fallbacks: string[] }>();
    expect(report.status).toBe('completed');
    expect(report.fallbacks.length).toBeGreaterThan(0);
    const launched = events().filter((e) => e.type === 'agent.launched');
    expect(launched.some((e) => e.data.fallback)).toBe(true);
  });
});

describe('baton run with a fake Codex whose turn fails', () => {
  interface Run {
    resume: string | null;
    task: string;
    prompt_chars: number;
  }
  interface Report {
    status: string;
    fallbacks: string[];
    tasks: { id: string; outcome: string }[];
  }
  /** `baton run` of two tasks by the fake Codex with `env`: its report, and each run of the agent (task, resumed). */
  async function twoTasks(env: Record<string, string>) {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeCodex });
    expect((await ws.create()).code).toBe(0);
    const log = join(ws.home, 'agent.log');
    const r = await ws.cli(['run', '--agent', 'codex', '--max-tasks', '2'], {
      CODEX_HOME: tempDir('codex-home-'),
      FAKE_LOG: log,
      ...env,
    });
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Run)
      .map((x) => [x.task, x.resume !== null]);
    return { ws, r, report: r.json<Report>(), runs };
  }

  it("Codex's own words for a full context go on in a fresh session with the compiled context", async () => {
    const { r, report, runs } = await twoTasks({
      FAKE_FAIL:
        "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.",
      FAKE_FAIL_TASK: 'T2',
      FAKE_FAIL_ONCE: join(tempDir('baton-once-'), 'failed'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(report.fallbacks).toEqual(['context full']);
    expect(report.tasks.map((t) => [t.id, t.outcome])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
    ]);
    // T2 in T1's thread, which filled; then in a new thread, with the compiled context in its prompt
    expect(runs).toEqual([
      ['T1', false],
      ['T2', true],
      ['T2', false],
    ]);
  });

  it('a resumed thread whose turn fails at the task fails the task: it is not run again as if its resume had failed', async () => {
    const { r, report, runs } = await twoTasks({ FAKE_FAIL: 'Error: something broke', FAKE_FAIL_TASK: 'T2' });
    expect(r.code).toBe(1);
    expect(report.fallbacks).toEqual([]);
    expect(report.tasks.map((t) => [t.id, t.outcome])).toEqual([
      ['T1', 'done'],
      ['T2', 'error'],
    ]);
    expect(runs).toEqual([
      ['T1', false],
      ['T2', true],
    ]);
  });
});

describe("the work `baton run` records from its agent's output", () => {
  it("Claude Code: test runs and errors as a transcript's import reads them: a failing run, then fixed", async () => {
    const ws = setup();
    // T1 is the red step (a turn ending on a failing test is not done otherwise): its test fails, T2 makes it pass
    const made = await ws.cli([
      'create',
      '--title',
      'Sum',
      '--task',
      'T1:Write a failing test for sum',
      '--task',
      'T2:Make it pass:T1',
      '--task',
      'T3:Tidy:T2',
    ]);
    expect(made.code, made.stderr).toBe(0);
    // `npm test` fails in T1 and passes from T2 on
    const bin = tempDir('baton-npm-');
    writeFileSync(
      join(bin, 'npm'),
      [
        '#!/bin/sh',
        'if [ "$FAKE_TASK" = T1 ]; then',
        "  printf ' FAIL  src/sum.test.ts > sum > adds\\nAssertionError: expected 3 to be 4\\n\\n Test Files  1 failed (1)\\n      Tests  1 failed | 2 passed (3)\\n'",
        '  exit 1',
        'fi',
        "printf ' ✓ src/sum.test.ts (3 tests) 4ms\\n\\n Test Files  1 passed (1)\\n      Tests  3 passed (3)\\n'",
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const r = await ws.cli(['run', '--agent', 'claude-code'], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      FAKE_COMMAND: 'npm test',
      FAKE_COMMAND_RUN: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const id = r.json<{ workflow_id: string }>().workflow_id;
    const tests = (await ws.cli(['details', 'test-state', '-w', id])).json<{
      test_state: { phase: string; passed: number | null };
      runs: unknown[];
    }>();
    expect(tests.test_state).toMatchObject({ phase: 'green', passed: 3 });
    expect(tests.runs).toHaveLength(3);
    // the failure is the test's, with its cause, fixed by the next run (not a tool's error left open)
    const errors = (await ws.cli(['details', 'errors', '-w', id])).json<
      { error_type: string; resolution: string }[]
    >();
    expect(errors.map((e) => [e.error_type, e.resolution])).toEqual([['test_failure', 'fixed']]);
  });

  it('Claude Code: a Write is the file created, relative to the worktree, and a commit its hash and subject', async () => {
    const ws = setup();
    expect((await ws.create()).code).toBe(0);
    const prompts = tempDir('baton-prompts-');
    const r = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '2'], {
      FAKE_PROMPT_DIR: prompts,
      FAKE_WRITE: '1',
      FAKE_COMMAND: 'git add -A && git commit -m "Work on $FAKE_TASK"',
      FAKE_COMMAND_RUN: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const [first] = gitIn(ws.repo, 'log', '--format=%h', '--reverse', 'HEAD~2..HEAD').trim().split('\n');
    // the second task's prompt says what the first did as the import of a transcript says it
    const second = readFileSync(join(prompts, readdirSync(prompts).sort()[1]!), 'utf8');
    expect(second).toContain('- [file_write] (T1) created work-T1.txt\n');
    expect(second).toMatch(new RegExp(`^- \\[commit\\] \\(T1\\) ${first}[0-9a-f]* Work on T1$`, 'm'));
    expect(second).not.toContain(ws.repo);
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).toMatch(/- files: created work-T1\.txt; created work-T2\.txt/);
    expect(context).not.toMatch(/changed Write|git add -A/);
    expect(context).toContain(`${first} Work on T1`);
  });

  it("Claude Code: a shell command's file changes and a quiet commit, as a transcript's import says them", async () => {
    const ws = setup();
    expect((await ws.create()).code).toBe(0);
    const r = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1'], {
      FAKE_COMMAND:
        'printf "x\\n" > notes.md && git rm -q README.md && git add -A && git commit -q -m "Add notes" && git log --oneline -1',
      FAKE_COMMAND_RUN: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const hash = gitIn(ws.repo, 'rev-parse', '--short', 'HEAD').trim();
    const status = (await ws.cli(['status'])).json<{ side_effects: { kind: string; summary: string }[] }>();
    expect(status.side_effects.map((e) => `${e.kind} ${e.summary}`)).toEqual([
      `commit ${hash} Add notes`,
      'file_write created notes.md',
      'file_write deleted README.md',
    ]);
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).toMatch(/- files: created notes\.md; deleted README\.md/);
    expect(context).not.toContain('git commit -q');
  });

  it('Codex: a file_change item is each file it lists, created or edited, relative to the worktree', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeCodex });
    expect((await ws.create()).code).toBe(0);
    const r = await ws.cli(['run', '--agent', 'codex', '--max-tasks', '1'], {
      CODEX_HOME: tempDir('codex-home-'),
      FAKE_ROLLOUT: 'none',
      FAKE_FILE_CHANGE: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const status = (await ws.cli(['status'])).json<{ side_effects: { kind: string; summary: string }[] }>();
    expect(status.side_effects.filter((e) => e.kind === 'file_write').map((e) => e.summary)).toEqual([
      'created work-T1.txt',
      'edited README.md',
    ]);
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    // neither committed (the fake agent commits nothing): a change under way, which git says
    expect(context).toMatch(
      /- files: created work-T1\.txt \(uncommitted\); edited README\.md \(uncommitted\)/,
    );
    expect(context).not.toContain('apply_patch');
  });
});
