import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { shellCommands, testCommand } from '../rules/shell-command.js';
import { readTestOutput, reportsFailure, type TestReport } from './test-output.js';

/** One test run the session made and what it reported. */
export interface TestRun extends TestReport {
  line: number;
  /** The tool call the run belongs to (several results can report one call: a PTY polled until it ends). */
  tool_id: string | null;
  at: string | null;
  command: string;
  outcome: 'pass' | 'fail';
  /** The agent said beforehand that this run should fail (the red step of test-first work). */
  expected_failure: boolean;
}

/** Phrases announcing that the next run is meant to fail. */
const expectsFailure =
  /\b(confirm (that )?(it|they|the tests?) fails?|(should|expect(ed)? to|will|must|to) (still )?fail|fails? for the (intended|right|expected) reason|red (step|phase|check)|failing (test|expectation)s? first|see (it|them) fail)\b/i;

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
    const command = commands.find((c) => testCommand.test(c)) ?? null;
    const report = command === null ? null : readTestOutput(e.text);
    if (!report || command === null) {
      // the announcement stands until the agent does something else than running tests
      if (command === null) said = '';
      continue;
    }
    const failed = reportsFailure(report);
    runs.push({
      ...report,
      line: e.line,
      tool_id: e.tool?.id ?? null,
      at: e.at,
      command,
      outcome: failed ? 'fail' : 'pass',
      expected_failure: failed && expectsFailure.test(said),
    });
    said = '';
  }
  return runs;
}
