import { describe, expect, it } from 'vitest';
import { counts } from '../../../test/helpers/test-reports.js';

describe('test runners beyond the JavaScript, Python, Rust and Go ones: what their output reports', () => {
  it('ExUnit (mix test): doctests and tests count, failures and excluded are taken off, failing tests named', () => {
    expect(
      counts(
        'Running ExUnit with seed: 1\n.....\nFinished in 3.0 seconds (1.3s async, 1.7s sync)\n14 doctests, 76 tests, 0 failures\n',
      ),
    ).toEqual({
      runner: 'exunit',
      passed: 90,
      failed: 0,
      skipped: 0,
      failing: [],
    });
    const red = [
      '  1) test mount renders the page (SpotterWeb.ProjectReviewLiveTest)',
      '     test/spotter_web/live/project_review_live_test.exs:58',
      '     ** (RuntimeError) no :secret_key_base configuration found',
      '',
      'Finished in 0.4 seconds',
      '5 tests, 2 failures, 1 excluded',
    ].join('\n');
    expect(counts(red)).toEqual({
      runner: 'exunit',
      passed: 2,
      failed: 2,
      skipped: 1,
      failing: ['test mount renders the page (SpotterWeb.ProjectReviewLiveTest)'],
    });
    expect(counts('1 property, 3 tests, 0 failures')?.passed).toBe(4);
  });

  it('RSpec: examples, failures, pending and the failing examples', () => {
    const out = [
      'Finished in 0.5 seconds (files took 1.2 seconds to load)',
      '10 examples, 2 failures, 1 pending',
      '',
      'Failed examples:',
      '',
      'rspec ./spec/models/user_spec.rb:12 # User validates the email',
      'rspec ./spec/models/user_spec.rb:20 # User hashes the password',
    ].join('\n');
    expect(counts(out)).toEqual({
      runner: 'rspec',
      passed: 7,
      failed: 2,
      skipped: 1,
      failing: ['User validates the email', 'User hashes the password'],
    });
  });

  it('RSpec: a spec file that failed to load fails the run', () => {
    const out = [
      'An error occurred while loading ./spec/models/user_spec.rb.',
      'Failure/Error: require "user"',
      '',
      'Finished in 0.00004 seconds (files took 0.21 seconds to load)',
      '0 examples, 0 failures, 1 error occurred outside of examples',
    ].join('\n');
    expect(counts(out)).toMatchObject({ runner: 'rspec', passed: 0, failed: 1 });
  });

  it('dotnet test: one summary per assembly, summed; the older Total tests form too', () => {
    const out = [
      '  Failed MyApp.Tests.CalcTests.Adds [12 ms]',
      'Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12, Duration: 1 s - MyApp.Tests.dll (net8.0)',
      'Passed!  - Failed:     0, Passed:     5, Skipped:     1, Total:     6, Duration: 80 ms - Other.Tests.dll (net8.0)',
    ].join('\n');
    expect(counts(out)).toEqual({
      runner: 'dotnet',
      passed: 16,
      failed: 1,
      skipped: 1,
      failing: ['MyApp.Tests.CalcTests.Adds'],
    });
    expect(
      counts(
        'Build succeeded.\nTest summary: total: 63, failed: 1, succeeded: 61, skipped: 1, duration: 4.2s',
      ),
    ).toMatchObject({ runner: 'dotnet', passed: 61, failed: 1, skipped: 1 });
    const platform = [
      'failed Shop.Tests.ProductApiTests.Creates_a_product (270ms)',
      '  Assert.Equal() Failure: Values differ',
      '',
      'Test run summary: Failed!',
      '  total: 5',
      '  failed: 1',
      '  succeeded: 3',
      '  skipped: 1',
      '  duration: 705ms',
    ].join('\n');
    expect(counts(platform)).toEqual({
      runner: 'dotnet',
      passed: 3,
      failed: 1,
      skipped: 1,
      failing: ['Shop.Tests.ProductApiTests.Creates_a_product'],
    });
    expect(counts('Total tests: 12\n     Passed: 12\n Total time: 1.2 Seconds')).toMatchObject({
      runner: 'dotnet',
      passed: 12,
      failed: 0,
    });
  });

  it('Gradle: the completed line, the FAILED tests, or BUILD SUCCESSFUL alone', () => {
    const out = [
      'CalcTest > adds() FAILED',
      '    org.opentest4j.AssertionFailedError at CalcTest.java:12',
      '12 tests completed, 1 failed, 2 skipped',
      'BUILD FAILED in 3s',
    ].join('\n');
    expect(counts(out)).toEqual({
      runner: 'gradle',
      passed: 9,
      failed: 1,
      skipped: 2,
      failing: ['CalcTest > adds()'],
    });
    expect(counts('> Task :test\n\nBUILD SUCCESSFUL in 5s\n4 actionable tasks: 4 executed')).toMatchObject({
      runner: 'gradle',
      passed: null,
      failed: 0,
    });
  });

  it('Maven Surefire: the last Tests run line is the total; failures and errors both fail', () => {
    const out = [
      '[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in com.acme.ATest',
      '[ERROR] Failures: ',
      '[ERROR]   CalcTest.testAdd:12 expected: <3> but was: <4>',
      '[INFO] ',
      '[ERROR] Tests run: 12, Failures: 1, Errors: 1, Skipped: 2',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(counts(out)).toEqual({
      runner: 'maven',
      passed: 8,
      failed: 2,
      skipped: 2,
      failing: ['CalcTest.testAdd'],
    });
  });

  it('deno test: the ok / FAILED summary and the failing tests', () => {
    expect(counts('running 5 tests from ./main_test.ts\nok | 5 passed | 0 failed (20ms)\n')).toEqual({
      runner: 'deno',
      passed: 5,
      failed: 0,
      skipped: null,
      failing: [],
    });
    const red =
      'ERRORS\n\nadds numbers => ./main_test.ts:3:6\n\nFAILED | 3 passed | 1 failed | 1 ignored (45ms)\n';
    expect(counts(red)).toEqual({
      runner: 'deno',
      passed: 3,
      failed: 1,
      skipped: 1,
      failing: ['adds numbers'],
    });
  });

  it('PHPUnit: OK (n tests) or the Tests/Failures/Errors line', () => {
    expect(counts('OK (5 tests, 10 assertions)')).toMatchObject({ runner: 'phpunit', passed: 5, failed: 0 });
    const red =
      '1) Tests\\CalcTest::testAdd\nFailed asserting that 4 matches expected 3.\n\nFAILURES!\nTests: 6, Assertions: 9, Failures: 1, Errors: 1, Skipped: 1.';
    expect(counts(red)).toEqual({
      runner: 'phpunit',
      passed: 3,
      failed: 2,
      skipped: 1,
      failing: ['Tests\\CalcTest::testAdd'],
    });
  });

  it("Python's unittest: Ran N tests then OK or FAILED (failures=, errors=, skipped=)", () => {
    const red = [
      '======================================================================',
      'FAIL: test_add (test_calc.TestCalc.test_add)',
      '----------------------------------------------------------------------',
      'AssertionError: 5 != 4',
      '',
      '----------------------------------------------------------------------',
      'Ran 12 tests in 0.004s',
      '',
      'FAILED (failures=1, errors=1, skipped=2)',
    ].join('\n');
    expect(counts(red)).toMatchObject({
      runner: 'unittest',
      passed: 8,
      failed: 2,
      skipped: 2,
      failing: ['test_add (test_calc.TestCalc.test_add)'],
    });
    expect(counts('Ran 3 tests in 0.001s\n\nOK')).toMatchObject({ runner: 'unittest', passed: 3, failed: 0 });
  });

  it('Minitest (rails test): runs, failures and errors, skips, and the failing tests by their headers', () => {
    const out = [
      'Run options: --seed 4242',
      '',
      '# Running:',
      '',
      '..F.S',
      '',
      'Failure:',
      'UserTest#test_rejects_a_blank_email [test/models/user_test.rb:12]:',
      'Expected true to be nil or false',
      '',
      'bin/rails test test/models/user_test.rb:10',
      '',
      'Finished in 0.152s, 32.8 runs/s, 52.5 assertions/s.',
      '5 runs, 8 assertions, 1 failures, 0 errors, 1 skips',
    ].join('\n');
    expect(counts(out)).toEqual({
      runner: 'minitest',
      passed: 3,
      failed: 1,
      skipped: 1,
      failing: ['UserTest#test_rejects_a_blank_email'],
    });
    const error =
      '  1) Error:\nCalcTest#test_divides:\nZeroDivisionError: divided by 0\n\n3 runs, 3 assertions, 0 failures, 1 errors, 0 skips';
    expect(counts(error)).toMatchObject({ passed: 2, failed: 1, failing: ['CalcTest#test_divides'] });
  });

  it('Pest and php artisan test: the Tests line with its assertions, failing tests as FAILED lines', () => {
    const out = [
      '   PASS  Tests\\Unit\\ExampleTest',
      '  ✓ that true is true',
      '',
      '   FAIL  Tests\\Feature\\LoginTest',
      '  ✓ it shows the form                                        0.05s',
      '  ⨯ it signs in                                              0.10s',
      '  - it remembers the user → not yet',
      '  ────────────────────────────────────────────────────────────────',
      '   FAILED  Tests\\Feature\\LoginTest > it signs in           AssertionFailedError',
      '  Expected response status code [302] but received 500.',
      '',
      '  Tests:    1 failed, 1 skipped, 2 passed (4 assertions)',
      '  Duration: 0.31s',
    ].join('\n');
    expect(counts(out)).toEqual({
      runner: 'pest',
      passed: 2,
      failed: 1,
      skipped: 1,
      failing: ['Tests\\Feature\\LoginTest > it signs in'],
    });
  });
});

describe('titles of failing tests on lines padded with blanks', () => {
  const padded = ' '.repeat(50_000);

  it('pest: the title without its duration; a long run of blanks with words after it stays in the title', () => {
    const out = `  FAILED  Tests\\Unit\\CartTest > it totals${padded}x y\n  FAILED  Tests\\Unit\\CartTest > it rounds  0.02s\n  Tests:    2 failed, 3 passed (9 assertions)`;
    expect(counts(out)?.failing).toEqual([
      `Tests\\Unit\\CartTest > it totals${padded}x y`,
      'Tests\\Unit\\CartTest > it rounds',
    ]);
  });

  it('playwright: a failed title padded with blanks before its rule, and one with words after the blanks', () => {
    const out = [
      '  2 failed',
      `    [chromium] › a.spec.ts:3:1 › pads${padded}──────`,
      `    [chromium] › a.spec.ts:9:1 › gap${padded}x y`,
      '  4 passed (3.0s)',
    ].join('\n');
    expect(counts(out)?.failing).toEqual([
      '[chromium] › a.spec.ts:3:1 › pads',
      `[chromium] › a.spec.ts:9:1 › gap${padded}x y`,
    ]);
  });
});
