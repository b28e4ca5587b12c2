import { describe, expect, it } from 'vitest';
import { readTestOutput, reportsFailure } from './test-output.js';
import { counts } from '../../../test/helpers/test-reports.js';

describe('test runners: what their output reports', () => {
  it('the runners already read before keep their results (pytest, cargo, go, bun)', () => {
    expect(counts('==== 2297 passed, 1 skipped, 1 warning in 126.83s (0:02:06) ====')).toMatchObject({
      runner: 'pytest',
      passed: 2297,
      failed: 0,
    });
    // pytest's plugins add counts of their own (pytest-rerunfailures, pytest-subtests)
    expect(
      counts('FAILED tests/test_a.py::test_x - assert 1 == 2\n=== 1 failed, 41 passed, 2 rerun in 3.10s ==='),
    ).toMatchObject({
      runner: 'pytest',
      passed: 41,
      failed: 1,
      failing: ['tests/test_a.py::test_x'],
    });
    expect(counts('==== 5 passed, 3 subtests passed in 0.21s ====')).toMatchObject({
      runner: 'pytest',
      passed: 5,
    });
    expect(counts('test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured')).toMatchObject({
      runner: 'cargo',
      failed: 1,
    });
    expect(counts('--- FAIL: TestResume (0.01s)\nFAIL\nFAIL\texample.com/cli\t0.2s')).toMatchObject({
      runner: 'go',
      failing: ['TestResume'],
    });
    expect(counts(' 3 pass\n 0 fail\n')).toMatchObject({ runner: 'bun', passed: 3, failed: 0 });
    const bunRed =
      'test/calc.test.ts:\n✓ Calculator > adds [0.10ms]\n✗ Calculator > divides [0.20ms]\n\n 1 pass\n 1 fail\nRan 2 tests across 1 files. [12.00ms]';
    expect(counts(bunRed)).toMatchObject({ runner: 'bun', failed: 1, failing: ['Calculator > divides'] });
  });

  it("TAP from Bats is not taken for go test's package lines, nor a cut-off jest run for a failed go package", () => {
    expect(counts('1..2\nok 1 adds\nnot ok 2 subtracts\n# (in test file test/calc.bats, line 9)')).toEqual({
      runner: 'tap',
      passed: 1,
      failed: 1,
      skipped: null,
      failing: ['subtracts'],
    });
    expect(
      readTestOutput('FAIL src/calc.test.js\n  ● Calculator › adds\n\n    expect(received).toBe(expected)'),
    ).toBeNull();
    expect(
      counts('ok  \texample.com/calc\t(cached)\nok  \texample.com/cli\t0.21s\tcoverage: 81.5% of statements'),
    ).toMatchObject({
      runner: 'go',
      failed: 0,
    });
  });

  it('go: a package whose tests did not compile is named as such, beside the tests that failed', () => {
    // a real run (shared corpus, claude-code/entire-cli/70/33bba9319c, line 200), its cached packages cut
    const unbuilt = [
      '# entire.io/cli/cmd/entire/cli/integration_test [entire.io/cli/cmd/entire/cli/integration_test.test]',
      'cmd/entire/cli/integration_test/hooks.go:312:24: undefined: strings',
      'ok  \tentire.io/cli/cmd/entire/cli\t5.187s',
      'FAIL\tentire.io/cli/cmd/entire/cli/integration_test [build failed]',
      'FAIL',
    ].join('\n');
    expect(counts(unbuilt)).toMatchObject({
      runner: 'go',
      failed: 1,
      failing: ['entire.io/cli/cmd/entire/cli/integration_test [build failed]'],
    });
    const both = `--- FAIL: TestResume (0.01s)\nFAIL\texample.com/cli\t0.2s\n${unbuilt}`;
    expect(counts(both)).toMatchObject({
      failed: 2,
      failing: ['TestResume', 'entire.io/cli/cmd/entire/cli/integration_test [build failed]'],
    });
  });

  it('output without a summary reports nothing', () => {
    expect(readTestOutput('Compiling 4 files (.ex)\nGenerated spotter app')).toBeNull();
    expect(readTestOutput('')).toBeNull();
  });
});

describe('a coverage threshold not met', () => {
  const unmet = (summary: string, gate: string) => readTestOutput(`${summary}\n${gate}\n`)?.coverage_unmet;
  it('fails a run whose tests all passed, in the words of pytest-cov, coverage.py, jest and istanbul', () => {
    const cases = [
      ['11 passed in 0.22s', 'FAIL Required test coverage of 85.0% not reached. Total coverage: 75.65%'],
      ['11 passed in 0.22s', 'Coverage failure: total of 75 is less than fail-under=85'],
      [
        'Tests:       12 passed, 12 total',
        'Jest: "global" coverage threshold for lines (80%) not met: 71.4%',
      ],
      [' Tests  12 passed (12)', 'ERROR: Coverage for lines (71.4%) does not meet global threshold (80%)'],
    ] as const;
    for (const [summary, gate] of cases) {
      expect(unmet(summary, gate)).toBe(gate);
      expect(reportsFailure(readTestOutput(`${summary}\n${gate}\n`)!)).toBe(true);
    }
  });

  it('is not read from a threshold met, or from a coverage table alone', () => {
    expect(
      unmet('11 passed in 0.22s', 'Required test coverage of 85.0% reached. Total coverage: 91.20%'),
    ).toBeNull();
    const table = readTestOutput('TOTAL   562   100   128   34   76%\n11 passed in 0.22s\n')!;
    expect([table.coverage, table.coverage_unmet, reportsFailure(table)]).toEqual([76, null, false]);
  });
});
