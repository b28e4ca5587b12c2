import { describe, expect, it } from 'vitest';
import { recordTestRun } from '../commands/records.js';
import type { WorkflowState } from '../schemas/state.js';
import { testsLeftFailing, testsLeftFailingWords } from './tests-left-failing.js';
import { freshWorkflow, tasksOf } from '../../../test/helpers/fresh-workflow.js';

let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'user' };
const began = '2026-03-01T09:59:00.000Z';

/** A workflow whose last test run (at 10:00) failed `failing`, those in `expected` announced as meant to fail. */
function ranTests(failing: string[], expected: string[] = []): WorkflowState {
  const d = freshWorkflow({ title: 'Parser', tasks: tasksOf({ id: 'T1', title: 'Parse dates' }) }, ctx);
  recordTestRun(d, {
    phase: failing.length ? 'red' : 'green',
    failing_tests: failing,
    expected_failures: expected,
    last_test_command: 'node --test test/dates.test.mjs',
    last_test_output_summary: `${2 - failing.length} passed, ${failing.length} failed`,
    passed: 2 - failing.length,
    failed: failing.length,
  });
  return d.state;
}

describe('testsLeftFailing', () => {
  it('names the failing run a turn ended on', () => {
    const left = testsLeftFailing(ranTests(['dates > reads ISO']), { title: 'Parse dates' }, began);
    expect(left).toEqual({
      command: 'node --test test/dates.test.mjs',
      result: '1 passed, 1 failed',
      tests: ['dates > reads ISO'],
      more: 0,
    });
    expect(testsLeftFailingWords(left!)).toBe(
      '`node --test test/dates.test.mjs` -> 1 passed, 1 failed; failing: dates > reads ISO',
    );
  });

  it('none when the last run passed, or came before the turn began', () => {
    expect(testsLeftFailing(ranTests([]), { title: 'Parse dates' }, began)).toBeNull();
    expect(
      testsLeftFailing(ranTests(['dates > reads ISO']), { title: 'Parse dates' }, '2026-03-01T10:05:00.000Z'),
    ).toBeNull();
  });

  it('none for the red step: failures the agent said it expected, or a task that writes a failing test', () => {
    const red = ranTests(['dates > reads ISO'], ['dates > reads ISO']);
    expect(testsLeftFailing(red, { title: 'Parse dates' }, began)).toBeNull();
    const failing = ranTests(['dates > reads ISO']);
    expect(testsLeftFailing(failing, { title: 'Write a failing test for ISO dates' }, began)).toBeNull();
    expect(testsLeftFailing(failing, { title: 'Dates: red step' }, began)).toBeNull();
    // the green step names the failing test too, and is not done while it fails
    expect(testsLeftFailing(failing, { title: 'Make the failing test pass' }, began)).not.toBeNull();
    expect(testsLeftFailing(failing, { title: 'Fix the failing tests' }, began)).not.toBeNull();
  });
});
