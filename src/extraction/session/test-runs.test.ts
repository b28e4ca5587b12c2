import { describe, expect, it } from 'vitest';
import { bash, cell, say } from '../../../test/helpers/tool-results.js';
import { findTestRuns } from './test-runs.js';

const lines = (...l: string[]) => l.join('\n');

describe('a test run names its test command', () => {
  it('the part of the shell line that ran the tests, beside the whole line', () => {
    const line = 'printf "export const pow = ..." > src/pow.js && node --test test/ 2>&1 | tail -8';
    const [run] = findTestRuns(bash(line, 0, lines('# tests 6', '# pass 6', '# fail 0')));
    expect(run).toMatchObject({ command: line, step: 'node --test test/', passed: 6, failed: 0 });
  });
});

describe('test runs of a session, with the runners of other projects', () => {
  it('an install is no run, a red swift test announced as such is expected, a failed build reports none', () => {
    const entries = [
      ...bash('npm install -D vitest', 0, 'added 51 packages, and audited 52 packages in 3s'),
      say('The parser test should fail first: the header is not read yet.'),
      ...bash(
        'swift test --filter ParserTests',
        1,
        lines(
          '\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds',
          '✘ Test "Parses a header" failed after 0.002 seconds with 1 issue.',
          '✘ Test run with 2 tests in 1 suite failed after 0.003 seconds with 1 issue.',
        ),
      ),
      ...bash(
        'xcodebuild test -scheme App -destination "platform=macOS"',
        65,
        "Testing failed:\n\tCannot find 'header' in scope\n\n** TEST FAILED **\n",
      ),
      cell(['flutter test'], '00:03 +14 ~1: All tests passed!'),
    ];
    const runs = findTestRuns(entries);
    expect(runs.map((r) => [r.runner, r.command, r.outcome, r.expected_failure, r.passed, r.failed])).toEqual(
      [
        ['swift', 'swift test --filter ParserTests', 'fail', true, 1, 1],
        ['dart', 'flutter test', 'pass', false, 14, 0],
      ],
    );
    expect(runs[0]?.failing).toEqual(['Parses a header']);
  });

  it("a monorepo's run through turbo reads every package; the last run is CTest's", () => {
    const entries = [
      ...bash(
        'npx turbo run test',
        1,
        lines(
          '@acme/api:test:       Tests  4 passed (4)',
          '@acme/api:test:  Test Files  1 passed (1)',
          '@acme/api:test: > vitest run',
          '@acme/web:test:  FAIL  src/form.test.tsx > Form > submits',
          '@acme/web:test:       Tests  1 failed | 9 passed (10)',
          '@acme/web:test:  Test Files  1 failed | 2 passed (3)',
        ),
      ),
      ...bash('ctest --test-dir build', 0, '100% tests passed, 0 tests failed out of 7\n'),
    ];
    const runs = findTestRuns(entries);
    expect(runs.map((r) => [r.runner, r.outcome, r.passed, r.failed, r.failing])).toEqual([
      ['vitest', 'fail', 13, 1, ['src/form.test.tsx > Form > submits']],
      ['ctest', 'pass', 7, 0, []],
    ]);
  });
});

describe("a project's own test script", () => {
  it('is a test run when it prints a report a runner would (TAP), and not when it prints none', () => {
    const entries = [
      ...bash('./test_greet.sh', 0, lines('1..2', 'ok 1 - greet says hello', 'ok 2 - greet takes a name')),
      ...bash('bash scripts/run-tests.sh', 0, 'all good'),
      ...bash(
        './test_greet.sh',
        1,
        lines('1..2', 'ok 1 - greet says hello', 'not ok 2 - greet takes a name'),
      ),
    ];
    expect(findTestRuns(entries).map((r) => [r.runner, r.command, r.outcome, r.passed, r.failed])).toEqual([
      ['tap', './test_greet.sh', 'pass', 2, 0],
      ['tap', './test_greet.sh', 'fail', 1, 1],
    ]);
  });

  it("is a test file its interpreter ran, read by the report it prints (node:test's, unittest's)", () => {
    const entries = [
      ...bash(
        'node test/calc.test.js',
        0,
        lines(
          'TAP version 13',
          '# Subtest: adds',
          'ok 1 - adds',
          '1..1',
          '# tests 1',
          '# pass 1',
          '# fail 0',
        ),
      ),
      ...bash('node scripts/build.js', 0, lines('# pass 3', '# fail 0')),
    ];
    expect(findTestRuns(entries).map((r) => [r.command, r.outcome, r.passed, r.failed])).toEqual([
      ['node test/calc.test.js', 'pass', 1, 0],
    ]);
  });
});
