import { describe, expect, it } from 'vitest';
import { readTestOutput } from './test-output.js';
import { counts, lines } from '../../../test/helpers/test-reports.js';

describe("Apple's runners: swift test and xcodebuild test", () => {
  it('XCTest on macOS: the last Executed line is the total, failed tests counted by name, not by assertions', () => {
    const out = lines(
      "Test Suite 'All tests' started at 2026-11-25 05:00:00.123.",
      "Test Suite 'CalcTests' started at 2026-11-25 05:00:00.124.",
      "Test Case '-[CalcTests.CalcTests testAdds]' started.",
      "Test Case '-[CalcTests.CalcTests testAdds]' passed (0.001 seconds).",
      "Test Case '-[CalcTests.CalcTests testDivides]' started.",
      '/src/Tests/CalcTests/CalcTests.swift:14: error: -[CalcTests.CalcTests testDivides] : XCTAssertEqual failed: ("2") is not equal to ("3")',
      '/src/Tests/CalcTests/CalcTests.swift:15: error: -[CalcTests.CalcTests testDivides] : XCTAssertTrue failed',
      "Test Case '-[CalcTests.CalcTests testDivides]' failed (0.002 seconds).",
      "Test Case '-[CalcTests.CalcTests testNetwork]' started.",
      '/src/Tests/CalcTests/CalcTests.swift:20: -[CalcTests.CalcTests testNetwork] : Test skipped - needs network',
      "Test Case '-[CalcTests.CalcTests testNetwork]' skipped (0.000 seconds).",
      "Test Suite 'CalcTests' failed at 2026-11-25 05:00:00.130.",
      '\t Executed 3 tests, with 1 test skipped and 2 failures (0 unexpected) in 0.003 (0.004) seconds',
      "Test Suite 'All tests' failed at 2026-11-25 05:00:00.131.",
      '\t Executed 3 tests, with 1 test skipped and 2 failures (0 unexpected) in 0.003 (0.006) seconds',
    );
    expect(counts(out)).toEqual({
      runner: 'swift',
      passed: 1,
      failed: 1,
      skipped: 1,
      failing: ['CalcTests.CalcTests.testDivides'],
    });
  });

  it('XCTest on Linux passes; cut off before the Executed line it reports nothing', () => {
    const run = lines(
      "Test Case 'CalcTests.testAdds' started at 2026-11-25 05:00:00.200",
      "Test Case 'CalcTests.testAdds' passed (0.001 seconds)",
      "Test Suite 'All tests' passed at 2026-11-25 05:00:00.300",
      '\t Executed 5 tests, with 0 failures (0 unexpected) in 0.012 (0.014) seconds',
    );
    expect(counts(run)).toEqual({ runner: 'swift', passed: 5, failed: 0, skipped: 0, failing: [] });
    expect(readTestOutput(run.split('\n').slice(0, 2).join('\n'))).toBeNull();
  });

  it('swift-testing after an empty XCTest run: the run line counts (skipped included), failing tests by name', () => {
    const out = lines(
      'Building for debugging...',
      'Build complete! (3.21s)',
      "Test Suite 'All tests' started at 2026-11-25 05:00:00.100.",
      "Test Suite 'All tests' passed at 2026-11-25 05:00:00.101.",
      '\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds',
      '◇ Test run started.',
      '↳ Testing Library Version: 6.0.3',
      '◇ Suite ParserTests started.',
      '◇ Test parsesEmpty() started.',
      '◇ Test "Parses a header" started.',
      '✘ Test "Parses a header" recorded an issue at ParserTests.swift:12:5: Expectation failed: (header.count → 2) == 3',
      '✘ Test "Parses a header" failed after 0.002 seconds with 1 issue.',
      '✔ Test parsesEmpty() passed after 0.001 seconds.',
      '➜ Test slowPath() skipped: "needs a fixture"',
      '✘ Suite ParserTests failed after 0.003 seconds with 1 issue.',
      '✘ Test run with 3 tests in 1 suite failed after 0.003 seconds with 1 issue.',
    );
    expect(counts(out)).toEqual({
      runner: 'swift',
      passed: 1,
      failed: 1,
      skipped: 1,
      failing: ['Parses a header'],
    });
  });

  it("swift-testing with macOS's SF Symbols, beside XCTest's own tests: both runs add up", () => {
    const out = lines(
      "Test Case '-[KitTests.StoreTests testSaves]' passed (0.010 seconds).",
      '\t Executed 4 tests, with 0 failures (0 unexpected) in 0.020 (0.021) seconds',
      '\u{10105B}  Test run with 7 tests in 2 suites passed after 0.004 seconds.',
    );
    expect(counts(out)).toEqual({ runner: 'swift', passed: 11, failed: 0, skipped: 0, failing: [] });
    // a run cut off before its summary line reports nothing
    expect(
      readTestOutput('◇ Test run started.\n✔ Test parsesEmpty() passed after 0.001 seconds.'),
    ).toBeNull();
    // XCTest's empty harness run, then swift-testing cut off: not a green run of nothing
    const harnessOnly =
      '\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds\n◇ Test run started.\n◇ Test parsesEmpty() started.';
    expect(readTestOutput(harnessOnly)).toBeNull();
  });

  it('xcodebuild test: the XCTest counts, the verdict line names the runner', () => {
    const red = lines(
      "Test Suite 'All tests' started at 2026-11-25 05:10:00.000.",
      "Test Case '-[AppTests.AppTests testLaunch]' passed (0.120 seconds).",
      "Test Case '-[AppTests.AppTests testLogin]' failed (0.300 seconds).",
      '\t Executed 2 tests, with 1 failure (0 unexpected) in 0.420 (0.430) seconds',
      '',
      'Failing tests:',
      '\tAppTests:',
      '\t\tAppTests.testLogin()',
      '',
      '** TEST FAILED **',
    );
    expect(counts(red)).toEqual({
      runner: 'xcodebuild',
      passed: 1,
      failed: 1,
      skipped: 0,
      failing: ['AppTests.AppTests.testLogin'],
    });
    expect(counts('Testing started\n** TEST SUCCEEDED **\n')).toEqual({
      runner: 'xcodebuild',
      passed: null,
      failed: 0,
      skipped: null,
      failing: [],
    });
    // the summary's tail only: the failing list still names the test
    expect(counts('Failing tests:\n\tAppTests.testLogin()\n\n** TEST FAILED **')).toMatchObject({
      failed: 1,
      failing: ['AppTests.testLogin()'],
    });
  });

  it('xcodebuild test whose build failed before the tests reports no result', () => {
    const out = lines(
      "/src/App/ContentView.swift:12:9: error: cannot find 'foo' in scope",
      'Testing failed:',
      "\tCannot find 'foo' in scope",
      '\tTesting cancelled because the build failed.',
      '',
      '** TEST FAILED **',
      '',
      'The following build commands failed:',
      '\tSwiftCompile normal arm64 /src/App/ContentView.swift (in target App from project App)',
      '(1 failure)',
    );
    expect(readTestOutput(out)).toBeNull();
  });
});
