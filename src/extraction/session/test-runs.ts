import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { shellCommands, testCommand, testScript, testStep } from '../rules/shell-command.js';
import { readTestOutput, reportsFailure, type TestReport } from './test-output.js';

/** One test run the session made and what it reported. */
export interface TestRun extends TestReport {
  line: number;
  /** The tool call the run belongs to (several results can report one call: a PTY polled until it ends). */
  tool_id: string | null;
  at: string | null;
  /** The whole command line the run was part of. */
  command: string;
  /** The test command itself: the part of the line that ran the tests, after its `cd` (`testStep`). */
  step: string;
  outcome: 'pass' | 'fail';
  /** The agent said beforehand that this run should fail (the red step of test-first work). */
  expected_failure: boolean;
}

/** Phrases announcing that the next run is meant to fail. */
const expectsFailure =
  /\b(confirm (that )?(it|they|the tests?) fails?|(should|expect(ed)? to|will|must|to) (still )?fail|fails? for the (intended|right|expected) reason|red (step|phase|check)|failing (test|expectation)s? first|see (it|them) fail)\b/i;

/** A test file's name: `a.test.ts`, `a_spec.rb`, `test_a.py`, `a_test.go`, or a file under `tests/`, `__tests__/`, `spec/`. */
const testFile =
  /(?:^|[\\/])(?:tests?|__tests__|spec)[\\/]|[._-](?:test|spec)s?\.\w+$|(?:^|[\\/])test_[^\\/]*$/;
const fileTools = new Set([
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'apply_patch',
  'edit',
  'write',
  'create',
]);

/**
 * A tool result that writes tests (an Edit or Write of a test file, a patch whose files are all tests): writing the
 * test between "it should fail" and the run does not end the announcement.
 */
function writesTests(e: TranscriptEntry): boolean {
  const tool = e.tool;
  if (!tool || !fileTools.has(tool.name ?? '')) return false;
  const input = tool.input;
  const paths =
    typeof input === 'string'
      ? [...input.matchAll(/^\*\*\* (?:Update|Add) File: (.+)$/gm)].map((m) => m[1] ?? '')
      : typeof input === 'object' && input !== null
        ? [(input as Record<string, unknown>).file_path ?? (input as Record<string, unknown>).path]
        : [];
  const files = paths.filter((p): p is string => typeof p === 'string' && p !== '');
  return files.length > 0 && files.every((f) => testFile.test(f.trim()));
}

/**
 * Test runs: results of commands that run a test suite whose output reports a result (a run cut off before its
 * summary, or a build that failed before the tests, reports none). The outcome is `fail` when failures are reported.
 */
export function findTestRuns(entries: readonly TranscriptEntry[]): TestRun[] {
  const runs: TestRun[] = [];
  let said = '';
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.role === 'assistant' && (e.kind === 'text' || e.kind === 'thinking')) {
      said = e.text;
      continue;
    }
    if (e.kind !== 'tool_result') continue;
    const commands = shellCommands(e);
    const command = commands.find((c) => testCommand.test(c) || testScript.test(c)) ?? null;
    const report = command === null ? null : readTestOutput(e.text);
    if (!report || command === null) {
      // the announcement stands until the agent does something else than running tests or writing the tests
      if (command === null && !writesTests(e)) said = '';
      continue;
    }
    const failed = reportsFailure(report);
    runs.push({
      ...report,
      line: e.line,
      tool_id: e.tool?.id ?? null,
      at: e.at,
      command,
      step: testStep(command),
      outcome: failed ? 'fail' : 'pass',
      expected_failure: failed && expectsFailure.test(said),
    });
    said = '';
  }
  return runs;
}
