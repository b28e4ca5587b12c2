import { describe, expect, it } from 'vitest';
import { parseCorpusLines } from '../../../../test/helpers/corpus-lines.js';
import { causeOf } from './cause-line.js';
import { findErrors } from './error-rules.js';
import { shellCommand, shellCommands } from '../shell-command.js';

/** The line an error names as its cause: what failed and why, not the banner a runner frames its report with. */
describe('the cause of a failed test run is the failing test and its reason', () => {
  it('pytest: the FAILED summary line or the E line, not "=== FAILURES ==="', () => {
    const short = [
      '=================================== FAILURES ===================================',
      '___________________________________ test_div ___________________________________',
      '    def test_div():',
      '>       assert div(1, 0) == 0',
      'E       ZeroDivisionError: division by zero',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_div - ZeroDivisionError: division by zero',
      '========================= 1 failed, 3 passed in 0.12s =========================',
    ].join('\n');
    expect(causeOf(short)).toBe('E       ZeroDivisionError: division by zero');
    expect(causeOf(short.split('\n').slice(5).join('\n'))).toBe(
      'FAILED tests/test_calc.py::test_div - ZeroDivisionError: division by zero',
    );
  });

  it("node's test runner (TAP): the assertion's message, not its failureType", () => {
    // `node --test` on Node 20, not a terminal: TAP
    const tap = [
      'TAP version 13',
      '# Subtest: adds',
      'not ok 1 - adds',
      '  ---',
      '  duration_ms: 2.745574',
      "  location: '/home/u/app/test/a.test.js:3:1'",
      "  failureType: 'testCodeFailure'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    ',
      '    8 !== 2',
      '    ',
      "  code: 'ERR_ASSERTION'",
      "  name: 'AssertionError'",
      '  expected: 2',
      '  actual: 8',
      "  operator: 'strictEqual'",
      '  stack: |-',
      '    TestContext.<anonymous> (/home/u/app/test/a.test.js:3:29)',
      '    Test.runInAsyncScope (node:async_hooks:206:9)',
      '    Test.run (node:internal/test_runner/test:796:25)',
      '    Test.processPendingSubtests (node:internal/test_runner/test:526:18)',
      '    node:internal/test_runner/harness:255:12',
      '    node:internal/process/task_queues:140:7',
      '    AsyncResource.runInAsyncScope (node:async_hooks:206:9)',
      '    AsyncResource.runMicrotask (node:internal/process/task_queues:137:8)',
      '  ...',
      '# Subtest: works',
      'ok 2 - works',
      '  ---',
      '  duration_ms: 0.18146',
      '  ...',
      '1..2',
      '# tests 2',
      '# suites 0',
      '# pass 1',
      '# fail 1',
      '# cancelled 0',
      '# skipped 0',
      '# todo 0',
    ].join('\n');
    expect(causeOf(tap)).toBe('Expected values to be strictly equal: 8 !== 2');
  });

  it('jest: the failing test, not the file banner; go: the located message under --- FAIL', () => {
    const jest = [
      'FAIL src/sum.test.js',
      '  ● sum › adds two numbers',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      'Tests:       1 failed, 3 passed, 4 total',
    ].join('\n');
    expect(causeOf(jest)).toBe('● sum › adds two numbers');
    const go = [
      '--- FAIL: TestAdd (0.00s)',
      '    add_test.go:9: Add(2, 2) = 5, want 4',
      'FAIL',
      'FAIL\texample.com/app\t0.003s',
    ].join('\n');
    expect(causeOf(go)).toBe('add_test.go:9: Add(2, 2) = 5, want 4');
    // a helper's log line comes first (t.Log from another file): the test's own message is the cause
    const logged = [
      '--- FAIL: TestSync_TwoWriters (0.41s)',
      '    runner.go:88: writer output: 2026/03/02 11:04:09 INFO flushed component=store rows=2',
      '        opened the journal',
      '    sync_test.go:120: Expected 1 journal file, got 2',
      'FAIL',
    ].join('\n');
    expect(causeOf(logged)).toBe('sync_test.go:120: Expected 1 journal file, got 2');
    // the test's own t.Log line comes before its t.Error line: the one that says what was wanted is the cause
    const noted = [
      '--- FAIL: TestPrune_KeepsLatest (0.32s)',
      '    prune_test.go:58: Prune output:',
      '        Removed 3 stale snapshots',
      '    prune_test.go:66: snapshots left = 0, want 1',
      'FAIL',
    ].join('\n');
    expect(causeOf(noted)).toBe('prune_test.go:66: snapshots left = 0, want 1');
    // a log line that says "got" is weaker than the one that says what was wanted
    const got = [
      '--- FAIL: TestFetch (0.01s)',
      '    fetch_test.go:10: got response: 200 OK',
      '    fetch_test.go:14: status = 500, want 200',
    ].join('\n');
    expect(causeOf(got)).toBe('fetch_test.go:14: status = 500, want 200');
    // with no test message at all, a located line that is only a log is not the cause either
    expect(
      causeOf(
        ['--- FAIL: TestX (0.1s)', '    runner.go:88: 12:00:01 INFO started', '    x.go:3: bad'].join('\n'),
      ),
    ).toBe('x.go:3: bad');
  });

  it('other failures keep their diagnostic: a compiler error, a shell error', () => {
    expect(causeOf("Exit code 2\nsrc/a.ts(3,5): error TS2322: Type 'string' is not assignable")).toBe(
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable",
    );
    expect(causeOf('Exit code 127\nbash: line 1: pkl: command not found')).toBe(
      'bash: line 1: pkl: command not found',
    );
  });

  it("a script of its own under npm: not npm's echo of the script; a TAP `not ok` where no line says why", () => {
    const own = ['> calc@1.0.0 test', '> node test.js', '', 'ok add', 'not ok multiply', '1 passed'].join(
      '\n',
    );
    expect(causeOf(`Exit code 1\n${own}`)).toBe('not ok multiply');
    const said = own.replace(
      'not ok multiply',
      'not ok multiply: Expected values to be strictly equal: 4 !== 6',
    );
    expect(causeOf(said)).toBe('not ok multiply: Expected values to be strictly equal: 4 !== 6');
    // a scoped package and a script with a colon; the line under it is the command, whatever it is
    expect(
      causeOf('> @acme/web@2.1.0 lint:fix\n> eslint . --fix\n\nsrc/a.ts:3:5  error  no-unused-vars'),
    ).toBe('src/a.ts:3:5  error  no-unused-vars');
  });
});

describe("a wrapped compiler's diagnostic, not the wrapper's closing lines", () => {
  it('npm running tsc with no exit code recorded: the TS error, not "npm error command sh -c tsc"', () => {
    const npm = [
      '> app@1.0.0 typecheck',
      '> tsc --noEmit',
      '',
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      'npm error Lifecycle script `typecheck` failed with error:',
      'npm error code 2',
      'npm error command failed',
      'npm error command sh -c tsc --noEmit',
    ].join('\n');
    expect(causeOf(npm, true)).toBe(
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    expect(causeOf("src/a.ts:3:5 - error TS2304: Cannot find name 'foo'.\n\nFound 1 error.", true)).toBe(
      "src/a.ts:3:5 - error TS2304: Cannot find name 'foo'.",
    );
  });

  it("joins a line that introduces its message on the next: Rust's panic", () => {
    const panic = [
      "thread 'main' (34164807) panicked at src/settings.rs:101:30:",
      'Failed to load configuration: Import not found: pkl/Builtins.pkl',
      'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
    ].join('\n');
    expect(causeOf(panic)).toBe(
      "thread 'main' (34164807) panicked at src/settings.rs:101:30: Failed to load configuration: Import not found: pkl/Builtins.pkl",
    );
  });
});

describe('the diagnostic, not the line that wraps it', () => {
  it("a background task's status fields give way to what its output says", () => {
    const task = [
      '<retrieval_status>success</retrieval_status>',
      '<task_id>a41f09</task_id>',
      '<status>failed</status>',
      '<exit_code>1</exit_code>',
      '<output>',
      '> api@2.3.0 start',
      'Error: listen EADDRINUSE: address already in use 0.0.0.0:8787',
      '</output>',
    ].join('\n');
    expect(causeOf(task)).toBe('Error: listen EADDRINUSE: address already in use 0.0.0.0:8787');
    // near miss: a refusal wrapped in a tag is itself the cause
    expect(causeOf('<tool_use_error>File has not been read yet. Read it first.</tool_use_error>')).toBe(
      'File has not been read yet. Read it first.',
    );
  });

  it("make's Error 127 gives way to the program's own missing-file line; npm's bare prefix to its message", () => {
    const make = ['Exit code 2', 'shellcheck scripts/*.sh', 'make: shellcheck: No such file or directory'];
    expect(causeOf([...make, 'make: *** [Makefile:22: check] Error 127'].join('\n'))).toBe(
      'make: shellcheck: No such file or directory',
    );
    const npm = [
      'Exit code 1',
      'npm error',
      'npm error Missing script: "lint:css"',
      'npm error',
      'npm error   npm run',
    ];
    expect(causeOf(npm.join('\n'))).toBe('npm error Missing script: "lint:css"');
    // near miss: make's verdict alone is still the cause when nothing else says why
    expect(causeOf('Exit code 2\nmake: *** [Makefile:9: all] Error 1')).toBe(
      'make: *** [Makefile:9: all] Error 1',
    );
  });
});

/**
 * A run of several parts (test binaries, projects, suites, packages, apps) prints a summary per part, the passing ones
 * too: the cause is the failing test and why, never a passing part's count line.
 */
describe('a run of several parts: the failing test, not a passing summary', () => {
  it('cargo test with two test binaries: the panic of the failing test with its values', () => {
    const cargo = [
      '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.41s',
      '     Running unittests src/lib.rs (target/debug/deps/calc-1a2b3c4d5e6f7a8b)',
      '',
      'running 2 tests',
      'test tests::adds ... ok',
      'test tests::subtracts ... ok',
      '',
      'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      '     Running tests/ops.rs (target/debug/deps/ops-4d5e6f7a8b9c0d1e)',
      '',
      'running 1 test',
      'test t_div ... FAILED',
      '',
      'failures:',
      '',
      '---- t_div stdout ----',
      '',
      "thread 't_div' panicked at tests/ops.rs:5:45:",
      'assertion `left == right` failed',
      '  left: 3',
      ' right: 2',
      'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
      '',
      '',
      'failures:',
      '    t_div',
      '',
      'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      'error: test failed, to rerun pass `--test ops`',
    ].join('\n');
    const cause =
      "thread 't_div' panicked at tests/ops.rs:5:45: assertion `left == right` failed (left: 3, right: 2)";
    expect(causeOf(cargo)).toBe(cause);
    // with no exit code recorded (a code-mode cell), not cargo's closing "error: test failed" either
    expect(causeOf(cargo, true)).toBe(cause);
  });

  it('dotnet test over two projects: the failing test, not "Passed!  - Failed: 0"', () => {
    const dotnet = [
      '  Determining projects to restore...',
      '  All projects are up-to-date for restore.',
      '  Calc -> /src/Calc/bin/Debug/net8.0/Calc.dll',
      '  Calc.Tests -> /src/Calc.Tests/bin/Debug/net8.0/Calc.Tests.dll',
      '  Calc.IntegrationTests -> /src/Calc.IntegrationTests/bin/Debug/net8.0/Calc.IntegrationTests.dll',
      'Test run for /src/Calc.Tests/bin/Debug/net8.0/Calc.Tests.dll (.NETCoreApp,Version=v8.0)',
      'Starting test execution, please wait...',
      'A total of 1 test files matched the specified pattern.',
      '',
      'Passed!  - Failed:     0, Passed:     4, Skipped:     0, Total:     4, Duration: 12 ms - Calc.Tests.dll (net8.0)',
      'Test run for /src/Calc.IntegrationTests/bin/Debug/net8.0/Calc.IntegrationTests.dll (.NETCoreApp,Version=v8.0)',
      'Starting test execution, please wait...',
      'A total of 1 test files matched the specified pattern.',
      '  Failed Calc.IntegrationTests.DivTests.Divides_by_two [4 ms]',
      '  Error Message:',
      '   Assert.Equal() Failure: Values differ',
      'Expected: 2',
      'Actual:   3',
      '',
      'Failed!  - Failed:     1, Passed:     2, Skipped:     0, Total:     3, Duration: 9 ms - Calc.IntegrationTests.dll (net8.0)',
    ].join('\n');
    expect(causeOf(dotnet)).toBe('Failed Calc.IntegrationTests.DivTests.Divides_by_two [4 ms]');
  });

  it("XCTest with two suites, a Maven reactor, sbt's projects: the failure, not a count of none", () => {
    const xctest = [
      "Test Suite 'All tests' started at 2026-11-29 10:00:00.000",
      "Test Suite 'AddTests' started at 2026-11-29 10:00:00.001",
      "Test Case 'AddTests.testAdd' started at 2026-11-29 10:00:00.001",
      "Test Case 'AddTests.testAdd' passed (0.001 seconds)",
      "Test Suite 'AddTests' passed at 2026-11-29 10:00:00.002",
      '\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds',
      "Test Suite 'DivTests' started at 2026-11-29 10:00:00.002",
      "Test Case 'DivTests.testDiv' started at 2026-11-29 10:00:00.002",
      '/src/Tests/CalcTests/DivTests.swift:6: error: DivTests.testDiv : XCTAssertEqual failed: ("3") is not equal to ("2")',
      "Test Case 'DivTests.testDiv' failed (0.002 seconds)",
      "Test Suite 'DivTests' failed at 2026-11-29 10:00:00.004",
      '\t Executed 1 test, with 1 failure (0 unexpected) in 0.002 (0.002) seconds',
    ].join('\n');
    expect(causeOf(xctest)).toBe(
      '/src/Tests/CalcTests/DivTests.swift:6: error: DivTests.testDiv : XCTAssertEqual failed: ("3") is not equal to ("2")',
    );
    const maven = [
      '[INFO] Running com.example.core.AddTest',
      '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.03 s - in com.example.core.AddTest',
      '[INFO] Results:',
      '[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0',
      '[INFO] Running com.example.web.DivTest',
      '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.02 s <<< FAILURE! - in com.example.web.DivTest',
      '[ERROR] divides(com.example.web.DivTest)  Time elapsed: 0.01 s  <<< FAILURE!',
      'org.opentest4j.AssertionFailedError: expected: <3> but was: <2>',
    ].join('\n');
    expect(causeOf(maven)).toBe(
      '[ERROR] divides(com.example.web.DivTest)  Time elapsed: 0.01 s  <<< FAILURE!',
    );
    const sbt = [
      '[info] AddSpec:',
      '[info] - adds',
      '[info] Tests: succeeded 1, failed 0, canceled 0, ignored 0, pending 0',
      '[info] All tests passed.',
      '[info] DivSpec:',
      '[info] - divides *** FAILED ***',
      '[info]   3 did not equal 2 (DivSpec.scala:6)',
      '[info] Tests: succeeded 0, failed 1, canceled 0, ignored 0, pending 0',
    ].join('\n');
    expect(causeOf(sbt)).toBe('[info] - divides *** FAILED ***');
  });

  it("an umbrella's mix test, go test over packages, vitest over files: what failed in the part that failed", () => {
    const umbrella = [
      '==> calc_core',
      '....',
      'Finished in 0.03 seconds (0.00s async, 0.03s sync)',
      '4 tests, 0 failures',
      '==> calc_web',
      '  1) test divides (CalcWebTest)',
      '     test/calc_web_test.exs:5',
      '     Assertion with == failed',
      '     code:  assert CalcWeb.div(6, 3) == 3',
      'Finished in 0.02 seconds (0.00s async, 0.02s sync)',
      '2 tests, 1 failure',
    ].join('\n');
    expect(causeOf(umbrella)).toBe('Assertion with == failed');
    // the exception under a test's name, not a word of the name ("handles invalid ids" is no error)
    const exunit = [
      'Running ExUnit with seed: 285179, max_cases: 32',
      '  1) test mount handles invalid project id gracefully (AppWeb.ReviewLiveTest)',
      '     test/app_web/live/review_live_test.exs:97',
      '     ** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.',
      '     Please add to your mix.exs:',
      'Finished in 1.0 seconds (0.00s async, 1.0s sync)',
      '5 tests, 5 failures',
    ].join('\n');
    expect(causeOf(exunit)).toBe(
      '** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.',
    );
    const go = [
      'ok  \texample.com/calc/add\t0.002s',
      '--- FAIL: TestDiv (0.00s)',
      '    div_test.go:9: Div(6, 3) = 3, want 2',
      'FAIL',
      'FAIL\texample.com/calc/div\t0.003s',
      'ok  \texample.com/calc/format\t(cached)',
      'FAIL',
    ].join('\n');
    expect(causeOf(go)).toBe('div_test.go:9: Div(6, 3) = 3, want 2');
    const vitest = [
      ' ✓ src/add.test.ts (2 tests) 2ms',
      ' ❯ src/div.test.ts (1 test | 1 failed) 4ms',
      '   × divides 3ms',
      '     → expected 3 to be 2 // Object.is equality',
      '',
      ' FAIL  src/div.test.ts > divides',
      'AssertionError: expected 3 to be 2 // Object.is equality',
      ' ❯ src/div.test.ts:5:20',
      '',
      ' Test Files  1 failed | 1 passed (2)',
      '      Tests  1 failed | 2 passed (3)',
    ].join('\n');
    expect(causeOf(vitest)).toBe(
      'FAIL  src/div.test.ts > divides: AssertionError: expected 3 to be 2 // Object.is equality',
    );
  });

  it('near misses: a failing count is the cause when nothing says more; an error saying a number stays one', () => {
    expect(causeOf('Exit code 1\nTests run: 3, Failures: 1, Errors: 0, Skipped: 0')).toBe(
      'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
    );
    expect(causeOf('Exit code 2\nmake: *** [Makefile:9: all] Error 1')).toBe(
      'make: *** [Makefile:9: all] Error 1',
    );
    expect(causeOf('Exit code 101\ntest result: ok. 2 passed; 0 failed; 0 ignored')).toBe('');
  });
});

/**
 * The real hk rollout (tuning split), lines 257-258: a cell printing two files with `sed`, then running `cargo +nightly
 * check`, which fails. Recorded as Claude Code's Bash records it (the trial that switched this work to Claude Code
 * did: the command line, exit code 101, the same output), the cause is cargo's first error, not a line of the source
 * `sed` printed ("// git config --get-regexp: ... ≥2 = real error.").
 */
describe("a compound command's cause: the failing program's diagnostic, not the files printed before it", () => {
  const cell = parseCorpusLines('codex/hk/e5/cb0813e003/0/full.jsonl', [1, 198, 199, 257, 258]);
  const bash = cell.map((e) => {
    if (e.kind !== 'tool_result' || !e.tool) return e;
    const command = shellCommands(e).join('\n').split('\n').join(' && ');
    const tool = { ...e.tool, name: 'Bash', input: { command }, exit_code: 101, is_error: true };
    return { ...e, text: `Exit code 101\n${e.text}`, tool };
  });

  it("is the compiler's first located error, with the exit code stated and without", () => {
    expect(shellCommand(bash.find((e) => e.kind === 'tool_result')!)).toMatch(
      /^sed -n '115,155p' src\/cli\/install\.rs && sed .* && cargo \+nightly check/,
    );
    expect(findErrors(bash, null)[0]?.error_message).toMatch(
      /: src\/cli\/install\.rs:140:17: error: trailing semicolon in macro used in expression position$/,
    );
    // no exit code (the cell printed only the output): read from the end, where cargo printed its errors
    expect(findErrors(cell, null)[0]?.error_message).toMatch(
      /: src\/test_runner\.rs:204:18: error: trailing semicolon in macro used in expression position$/,
    );
  });

  it('prefers a diagnostic line over an error-ish word anywhere: a Python exception, not the code that raised it', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/app/check.py", line 4, in <module>',
      '    raise ValueError("invalid port")',
      'ValueError: invalid port',
    ].join('\n');
    expect(causeOf(traceback)).toBe('ValueError: invalid port');
  });
});
