import type { TestReport } from './test-output.js';
import { countIn, lastMatch, n, report, unique } from './summary-parts.js';

/** Runners of compiled languages' own tools beyond cargo and go test: cargo-nextest, gotestsum, Zig, dart and flutter. */

/**
 * cargo-nextest: `Summary [   1.2s] 12 tests run: 11 passed, 1 failed, 2 skipped` (`5/12 tests run` when a failure
 * cancelled the rest), failing tests as `FAIL [   0.004s] crate tests::name` (also TIMEOUT or a signal). Read before
 * cargo's reader: a failing test's captured output holds libtest's own `test result:` line.
 */
export function nextest(t: string): TestReport | null {
  const line = lastMatch(t, /^[ \t]*Summary \[\s*[\d.]+s\] \d+(?:\/\d+)? tests? run: (.+)$/gm);
  if (!line) return null;
  const part = (name: string) => countIn(line[1], name) ?? 0;
  const failing = [
    ...t.matchAll(
      /^[ \t]*(?:FAIL|TIMEOUT|SIG[A-Z]+|ABORT|LEAK-FAIL) \[\s*[\d.]+s\](?: \(\s*\d+\/\d+\))? (.*\S)[ \t]*$/gm,
    ),
  ].map((m) => m[1] ?? '');
  return report(
    'nextest',
    part('passed'),
    part('failed') + part('timed out') + part('exec failed'),
    part('skipped'),
    failing,
  );
}

/**
 * gotestsum: `DONE 42 tests, 2 skipped, 1 failure in 1.234s` (`DONE 42 tests in 1.2s` when green); failing tests
 * as `=== FAIL: example.com/calc TestDivides (0.00s)` or, in its testname format, `FAIL calc.TestDivides (0.00s)`.
 */
export function gotestsum(t: string): TestReport | null {
  const line = lastMatch(t, /^DONE (?:\d+ runs?, )?(\d+) tests?((?:, \d+ [a-z]+)*) in [\d.]+m?s/gm);
  if (!line) return null;
  const part = (name: string) => countIn(line[2], name) ?? 0;
  const failing = [
    ...[...t.matchAll(/^=== FAIL: \S+ (\S+)/gm)].map((m) => m[1] ?? ''),
    ...[...t.matchAll(/^FAIL (\S+) \([\d.]+s\)/gm)].map((m) => m[1] ?? ''),
  ];
  const failed = part('failures?') + part('errors?');
  const skipped = part('skipped');
  return report('gotestsum', n(line[1]) - failed - skipped, failed, skipped, failing);
}

/**
 * Zig: `zig build test`'s `Build Summary: 3/5 steps succeeded; 1 failed; 10/12 tests passed; 1 skipped; 1 failed`
 * (only printed on failure or with `--summary`), or `zig test`'s `All 3 tests passed.` / `2 passed; 0 skipped;
 * 1 failed.`; failing tests as `error: 'main.test.adds' failed` or `2/3 main.test.adds...FAIL`.
 */
export function zig(t: string): TestReport | null {
  const failing = [
    ...[...t.matchAll(/^error: '(.+?)' failed\b/gm)].map((m) => m[1] ?? ''),
    ...[...t.matchAll(/^\d+\/\d+ (.+?)\.\.\.FAIL\b/gm)].map((m) => m[1] ?? ''),
  ];
  const build = lastMatch(t, /^Build Summary: .*?(\d+)\/\d+ tests passed((?:; \d+ [a-z ]+)*)/gm);
  if (build) {
    const part = (name: string) => n(new RegExp(`; (\\d+) ${name}`).exec(build[2] ?? '')?.[1]);
    return report('zig', n(build[1]), part('failed'), part('skipped'), failing);
  }
  const all = lastMatch(t, /^All (\d+) tests? passed\./gm);
  if (all) return report('zig', n(all[1]), 0, 0, []);
  const some = lastMatch(t, /^(\d+) passed; (\d+) skipped; (\d+) failed\./gm);
  return some ? report('zig', n(some[1]), n(some[3]), n(some[2]), failing) : null;
}

/**
 * `dart test` / `flutter test`: the last progress line `00:04 +12 ~1 -2: Some tests failed.` (or `All tests
 * passed!`) counts passed (+), skipped (~) and failed (-); a failing test's line ends with `[E]`.
 */
export function dart(t: string): TestReport | null {
  const line = lastMatch(
    t,
    /^(?:\d+:)+\d+ \+(\d+)(?: ~(\d+))?(?: -(\d+))?: (?:All tests passed!|Some tests failed\.)/gm,
  );
  if (!line) return null;
  const failing = unique(
    [...t.matchAll(/^(?:\d+:)+\d+ \+\d+(?: ~\d+)? -\d+: (.+?) \[E\][ \t]*$/gm)].map((m) => m[1] ?? ''),
  );
  return report('dart', n(line[1]), n(line[3]), n(line[2]), failing);
}
