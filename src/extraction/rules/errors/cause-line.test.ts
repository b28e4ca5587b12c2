import { describe, expect, it } from 'vitest';
import { causeOf } from './cause-line.js';

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
