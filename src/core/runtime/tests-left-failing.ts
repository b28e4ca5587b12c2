import { tddOf } from '../context/context-parts.js';
import type { WorkflowState } from '../schemas/state.js';
import type { Task } from '../schemas/workflow.js';

/** The failing test run an agent's turn ended on, as the TDD state holds it (`tddOf`). */
export interface TestsLeftFailing {
  command: string | null;
  /** "0 passed, 1 failed", as the runner reported it. */
  result: string | null;
  /** The failing tests named (the first few), and how many more failed. */
  tests: string[];
  more: number;
}

/**
 * A task whose work is a failing test (the red step of test-first work: "Write a failing test for the parser"), which
 * ends well with that test red. "Make the failing test pass" is the green step, which does not.
 */
const redStep =
  /\b(write|writes|writing|add|adds|adding|create|creates)\b[^.;]{0,40}\bfailing\b[^.;]{0,20}\b(test|spec)s?\b|\bred (step|phase)\b/i;
const makesPass = /\b(make|makes|making|get|gets|getting)\b[^.;]*\bpass/i;

/**
 * The tests a task's turn left failing: the last test run since `since` (when its agent began; null: whenever it ran)
 * failed, with failures the agent did not say beforehand it expected, and the task is not a red step. Read from the
 * TDD state Baton keeps from the agent's output (`tddOf`): a turn that ran no test since then, or whose last run
 * passed, left none (null).
 */
export function testsLeftFailing(
  s: Pick<WorkflowState, 'test_state'>,
  task: Pick<Task, 'title'>,
  since: string | null,
): TestsLeftFailing | null {
  const t = s.test_state;
  if (!t?.last_test_run_at || (since && Date.parse(t.last_test_run_at) < Date.parse(since))) return null;
  const tdd = tddOf(t, 3);
  if (!tdd || tdd.failing_total === 0) return null;
  // every failure named was announced ("it should fail": the red step), or the task is one
  if (!tdd.unexpected.length && tdd.expected.length) return null;
  if (redStep.test(task.title) && !makesPass.test(task.title)) return null;
  const tests = tdd.unexpected.length ? tdd.unexpected : tdd.expected;
  return {
    command: tdd.command,
    result: tdd.result,
    tests,
    more: Math.max(0, tdd.failing_total - tests.length),
  };
}

/** "`node --test` -> 0 passed, 1 failed (failing: adds up)", the run that was left failing, in a line. */
export function testsLeftFailingWords(f: TestsLeftFailing): string {
  const names = f.tests.length ? `failing: ${f.tests.join('; ')}${f.more ? `; ${f.more} more` : ''}` : '';
  const result = [f.result, names].filter(Boolean).join('; ');
  return `${f.command ? `\`${f.command}\`` : 'the last test run'}${result ? ` -> ${result}` : ''}`;
}
