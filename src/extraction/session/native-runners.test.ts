import { describe, expect, it } from 'vitest';
import { readTestOutput } from './test-output.js';
import { counts, lines } from '../../../test/helpers/test-reports.js';

describe('cargo-nextest', () => {
  it("its summary, not the libtest line of a failing test's captured output", () => {
    const out = lines(
      '    Starting 4 tests across 2 binaries (1 test skipped)',
      '        PASS [   0.004s] calc tests::adds',
      '        FAIL [   0.005s] calc tests::divides',
      '',
      '--- STDOUT:              calc tests::divides ---',
      '',
      'running 1 test',
      'test tests::divides ... FAILED',
      '',
      'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s',
      '',
      '--- STDERR:              calc tests::divides ---',
      "thread 'tests::divides' panicked at src/lib.rs:20:9:",
      '',
      '        PASS [   0.006s] calc::integration round_trip',
      '────────────',
      '     Summary [   0.007s] 4 tests run: 3 passed, 1 failed, 1 skipped',
      '        FAIL [   0.005s] calc tests::divides',
      'error: test run failed',
    );
    expect(counts(out)).toEqual({
      runner: 'nextest',
      passed: 3,
      failed: 1,
      skipped: 1,
      failing: ['calc tests::divides'],
    });
  });

  it('a green run, a cancelled one, and a run cut off before its summary', () => {
    expect(counts('     Summary [   0.012s] 12 tests run: 12 passed, 0 skipped')).toEqual({
      runner: 'nextest',
      passed: 12,
      failed: 0,
      skipped: 0,
      failing: [],
    });
    const cancelled = lines(
      '     TIMEOUT [  60.002s] calc tests::slow',
      '     Summary [  60.010s] 5/12 tests run: 4 passed, 1 timed out, 0 skipped',
    );
    expect(counts(cancelled)).toMatchObject({ failed: 1, failing: ['calc tests::slow'] });
    expect(
      readTestOutput('    Starting 12 tests across 3 binaries\n        PASS [   0.004s] calc tests::adds'),
    ).toBeNull();
  });
});

describe('gotestsum', () => {
  it('its DONE line, the failing tests under === FAIL, and a run cut off', () => {
    const out = lines(
      '✓  example.com/calc (12ms)',
      '✖  example.com/cli (20ms)',
      '',
      '=== Skipped',
      '=== SKIP: example.com/cli TestNetwork (0.00s)',
      '',
      '=== Failed',
      '=== FAIL: example.com/cli TestResume (0.01s)',
      '    resume_test.go:31: want 2 tasks, got 1',
      '',
      'DONE 42 tests, 1 skipped, 1 failure in 1.234s',
    );
    expect(counts(out)).toEqual({
      runner: 'gotestsum',
      passed: 40,
      failed: 1,
      skipped: 1,
      failing: ['TestResume'],
    });
    expect(counts('✓  example.com/calc (12ms)\n\nDONE 12 tests in 0.103s')).toMatchObject({
      passed: 12,
      failed: 0,
    });
    expect(readTestOutput('✓  example.com/calc (12ms)\n✖  example.com/cli (20ms)')).toBeNull();
  });
});

describe('Zig', () => {
  it('zig build test: the Build Summary counts tests, failing tests named by their error line', () => {
    const out = lines(
      'test',
      '└─ run test 2/3 passed, 1 failed',
      "error: 'main.test.divides' failed: expected 2, found 3",
      '/src/main.zig:20:5: 0x1048f3 in test.divides (test)',
      "error: while executing test 'main.test.divides', the following command terminated with signal 6:",
      'Build Summary: 3/5 steps succeeded; 1 failed; 2/3 tests passed; 1 failed',
      'test transitive failure',
    );
    expect(counts(out)).toEqual({
      runner: 'zig',
      passed: 2,
      failed: 1,
      skipped: 0,
      failing: ['main.test.divides'],
    });
    expect(counts('Build Summary: 7/7 steps succeeded; 40/42 tests passed; 2 skipped')).toMatchObject({
      passed: 40,
      failed: 0,
      skipped: 2,
    });
  });

  it('zig test, and a build whose compile error stopped it before the tests', () => {
    const red = lines(
      '1/3 main.test.adds...OK',
      '2/3 main.test.divides...FAIL (TestExpectedEqual)',
      '3/3 main.test.parses...SKIP',
      '1 passed; 1 skipped; 1 failed.',
    );
    expect(counts(red)).toEqual({
      runner: 'zig',
      passed: 1,
      failed: 1,
      skipped: 1,
      failing: ['main.test.divides'],
    });
    expect(counts('All 3 tests passed.')).toMatchObject({ runner: 'zig', passed: 3, failed: 0 });
    const compile = lines(
      "src/main.zig:3:5: error: use of undeclared identifier 'x'",
      'Build Summary: 0/3 steps succeeded; 1 failed',
      'test transitive failure',
    );
    expect(readTestOutput(compile)).toBeNull();
  });
});

describe('dart test and flutter test', () => {
  it('the last progress line counts passed, skipped and failed; [E] lines name the failures', () => {
    const out = lines(
      '00:00 +0: loading test/calc_test.dart',
      '00:01 +0: test/calc_test.dart: Calculator adds',
      '00:01 +1: test/calc_test.dart: Calculator divides',
      '00:01 +1 -1: test/calc_test.dart: Calculator divides [E]',
      '  Expected: <2>',
      '    Actual: <3>',
      '',
      '00:01 +1 -1: test/calc_test.dart: Calculator skipped one',
      '  Skip: not ready',
      '00:01 +1 ~1 -1: test/calc_test.dart: Calculator multiplies',
      '00:01 +2 ~1 -1: Some tests failed.',
    );
    expect(counts(out)).toEqual({
      runner: 'dart',
      passed: 2,
      failed: 1,
      skipped: 1,
      failing: ['test/calc_test.dart: Calculator divides'],
    });
  });

  it('a green run (progress redrawn with carriage returns), and a run cut off', () => {
    expect(counts('00:01 +3: test/a_test.dart: works\r00:02 +12: All tests passed!\n')).toEqual({
      runner: 'dart',
      passed: 12,
      failed: 0,
      skipped: 0,
      failing: [],
    });
    expect(
      readTestOutput('00:00 +0: loading test/calc_test.dart\n00:01 +3: test/calc_test.dart: adds'),
    ).toBeNull();
  });
});
