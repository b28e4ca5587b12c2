import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';

/** The agent's real work in the repository: a test file, a commit of it, and a run of that test. */
const work = [
  `printf "import test from 'node:test';\\ntest('works', () => {});\\n" > work-$FAKE_TASK.test.mjs`,
  'git add -A',
  'git commit -m "$FAKE_TASK: the work"',
  'node --test work-$FAKE_TASK.test.mjs',
].join(' && ');

describe("baton run's account of each task", () => {
  it('says on the done line and in the final report what the task produced: its commit, its tests, its cost', async () => {
    const ws = agentWorkspace({
      BATON_AGENT_BIN: fakeClaude,
      FAKE_COMMAND: work,
      FAKE_COMMAND_RUN: '1',
      FAKE_COST: '0.42',
    });
    await ws.create();
    // Not --json: the lines a person reads the morning after
    const r = await runCli(['run', '--agent', 'claude-code', '--max-tasks', '1'], {
      cwd: ws.repo,
      env: ws.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const produced = /commit [0-9a-f]{7} T1: the work; tests: 1 passed, 0 failed; [\d,]+ tokens, \$0\.42$/;
    const done = r.stderr.split('\n').find((l) => l.startsWith('baton run: task T1 done in '));
    expect(done, r.stderr).toMatch(
      new RegExp(`^baton run: task T1 done in \\d+m\\d{2}s: ${produced.source}`),
    );
    const line = r.stdout.split('\n').find((l) => l.startsWith('  T1: '));
    expect(line, r.stdout).toMatch(new RegExp(`^ {2}T1: done: ${produced.source}`));
    // --json carries the same, as figures
    const next = await ws.cli(['run', '--agent', 'claude-code', '--max-tasks', '1']);
    expect(next.code, next.stderr).toBe(0);
    const t2 = next.json<{ tasks: { id: string; produced: Record<string, unknown> }[] }>().tasks[0];
    expect(t2?.produced).toMatchObject({
      commits: [expect.stringMatching(/^commit [0-9a-f]{7} T2: the work$/)],
      tests: { result: '1 passed, 0 failed', failing: 0 },
      cost_usd: 0.42,
    });
  });
});
