import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

// How `baton run` judges a task's end: a turn that ends well on a failing test did not do its task (unless writing
// that failing test was the task), and a task that fails again and again is counted, said, and after
// FRESH_AFTER_FAILURES (3) taken up in a fresh agent session with the briefing.

type Workspace = ReturnType<typeof agentWorkspace>;
interface Line {
  event: string;
  message?: string;
  workflow_id?: string;
  status?: string;
  failed?: boolean;
  tasks?: { id: string; outcome: string; detail: string | null }[];
}

/** `baton run --json` with a fake Claude Code: its lines, each run's argv and task (FAKE_LOG), and its prompts. */
async function run(ws: Workspace, extra: Record<string, string> = {}, args: string[] = []) {
  const dir = tempDir('baton-prompts-');
  const log = join(dir, 'argv.ndjson');
  const r = await ws.cli(['run', '--agent', 'claude-code', ...args], {
    FAKE_PROMPT_DIR: dir,
    FAKE_LOG: log,
    ...extra,
  });
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
  const agents = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { args: string[]; resume: string | null; task: string | null });
  const prompts = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const notes = lines.filter((l) => l.event === 'note').map((l) => l.message);
  return { ...r, lines, report: lines.at(-1)!, agents, prompts, notes };
}

/** A test file in the repository whose one test passes or fails, and the agent's Bash call that runs it for real. */
function dateTest(ws: Workspace, passes: boolean) {
  mkdirSync(join(ws.repo, 'test'), { recursive: true });
  writeFileSync(
    join(ws.repo, 'test', 'dates.test.mjs'),
    `import test from 'node:test';\nimport assert from 'node:assert';\ntest('reads ISO dates', () => assert.equal(${passes ? 2 : 1}, 2));\n`,
  );
  return { FAKE_COMMAND: 'node --test test/dates.test.mjs', FAKE_COMMAND_RUN: '1' };
}

describe('`baton run` judges how a task ended', () => {
  it('a turn that ends well on a failing test fails its task, stops the run, and the next prompt says so', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const first = await run(ws, {
      ...dateTest(ws, false),
      FAKE_LAST_MESSAGE: 'I could not get the date test to pass: 1 == 2 fails.',
    });
    // stopped there, non-zero: T2 never ran on top of it
    expect(first.code, first.stderr).toBe(1);
    expect(first.agents.map((a) => a.task)).toEqual(['T1']);
    expect(first.report).toMatchObject({ status: 'in_progress', failed: true });
    const t1 = first.report.tasks!.find((t) => t.id === 'T1')!;
    expect(t1.outcome).toBe('tests_failing');
    expect(t1.detail).toContain(
      'its turn ended with its tests failing: `node --test test/dates.test.mjs` -> 0 passed, 1 failed; failing: reads ISO dates; its last words: "I could not get the date test to pass: 1 == 2 fails."',
    );
    // what to do next: the run again, or take the red test as the task's end
    expect(t1.detail).toContain(`\`baton task done T1 -w ${first.report.workflow_id}\``);
    expect(ws.count('task.completed')).toBe(0);

    const again = await run(ws, dateTest(ws, true), ['--max-tasks', '1']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.prompts[0]).toContain(
      'An earlier attempt at this task failed: its turn ended with its tests failing: `node --test test/dates.test.mjs` -> 0 passed, 1 failed; failing: reads ISO dates',
    );
    expect(again.report.tasks).toEqual([expect.objectContaining({ id: 'T1', outcome: 'done' })]);
  });

  it('a task whose work is the failing test (the red step) is done with it red', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    const made = await ws.cli([
      'create',
      '--title',
      'Dates',
      '--task',
      'T1:Write a failing test for ISO dates',
      '--task',
      'T2:Make the failing test pass:T1',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const r = await run(ws, dateTest(ws, false));
    // T1 is done red; T2, the green step, is not done while the test fails
    expect(r.code, r.stderr).toBe(1);
    expect(r.report.tasks!.map((t) => [t.id, t.outcome])).toEqual([
      ['T1', 'done'],
      ['T2', 'tests_failing'],
    ]);
  });

  it('counts a task failing again and again, says how its agent ended, and after 3 goes on in a fresh session with the briefing', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    // the agent exits 1 on an error in the middle of its turn, its result never said
    const crash = { FAKE_CRASH: '1' };
    const first = await run(ws, crash, ['--max-tasks', '1']);
    expect(first.code, first.stderr).toBe(1);
    const token =
      first.agents[0] && ws.events().find((e) => e.type === 'agent.token_saved')?.data.resume_token;
    expect(token).toBeTruthy();
    const id = first.report.workflow_id!;
    const go = `for a fresh one, \`baton pause -w ${id}\` before the run`;

    const second = await run(ws, crash, ['--max-tasks', '1']);
    expect(second.notes).toContain(
      `the last run's agent exited with code 1 in the middle of its turn on T1: going on in its own session (${token}; ${go})`,
    );
    expect(second.report.tasks![0]!.detail).toMatch(
      /\(the agent exited with code 1\) \(it failed 2 times in a row\)$/,
    );

    const third = await run(ws, crash, ['--max-tasks', '1']);
    expect(third.notes).toContain(
      `the last run's agent exited with code 1 in the middle of its turn on T1 (it failed 2 times in a row): going on in its own session (${token}; ${go})`,
    );
    expect(third.agents[0]!.resume).toBe(token);
    expect(third.prompts[0]).toContain(
      'Your last run exited with code 1 in the middle of its turn, before it finished (an error it did not report).',
    );
    expect(third.prompts[0]).toContain(
      'Earlier attempts at this task failed 2 times in a row; the last one:',
    );
    expect(third.report.tasks![0]!.detail).toContain(
      '(it failed 3 times in a row: the next run starts it in a fresh agent session, with the briefing)',
    );

    const fourth = await run(ws, {}, ['--max-tasks', '1']);
    expect(fourth.code, fourth.stderr).toBe(0);
    expect(fourth.notes).toContain(
      "the last run's agent exited with code 1 in the middle of its turn on T1: it failed 3 times in a row in its own session, so a fresh session goes on with the compiled context",
    );
    expect(fourth.agents[0]!.resume).toBeNull();
    expect(fourth.prompts[0]).toContain('## Resume context');
    expect(fourth.prompts[0]).toContain(
      'Earlier attempts at this task failed 3 times in a row; the last one:',
    );
    expect(fourth.report.tasks).toEqual([expect.objectContaining({ id: 'T1', outcome: 'done' })]);
  });
});
