import type { TestReport } from './test-output.js';
import { lastMatch, n, report, unique } from './summary-parts.js';

/** Runners of compiled projects beyond cargo and go: CTest, cargo-nextest, Zig's test runner, dart and flutter. */

/** The `  2 - name (Failed)` items CTest lists under a header (`The following tests FAILED:`). */
function ctestList(t: string, header: RegExp): string[] {
  const at = t.search(header);
  if (at < 0) return [];
  const names: string[] = [];
  for (const line of t.slice(at).split('\n').slice(1)) {
    const item = /^\s*\d+ - (.+?) \([^)]*\)\s*$/.exec(line);
    if (!item) break;
    names.push(item[1] ?? '');
  }
  return names;
}

/**
 * CTest: `83% tests passed, 2 tests failed out of 12` (CMake 4 drops the failed part when none failed: `100% tests
 * passed out of 12`). Skipped and disabled tests are in the total and listed under `The following tests did not run:`.
 */
export function ctest(t: string): TestReport | null {
  const line = lastMatch(t, /^\s*\d+% tests passed(?:, (\d+) tests? failed)? out of (\d+)/gm);
  if (!line) return null;
  const failing = ctestList(t, /^The following tests FAILED:\s*$/m);
  const notRun = ctestList(t, /^The following tests did not run:\s*$/m);
  const skipped = notRun.length > 0 ? notRun.length : [...t.matchAll(/\*\*\*(?:Skipped|Not Run)\b/g)].length;
  const failed = n(line[1]);
  return report('ctest', n(line[2]) - failed - skipped, failed, skipped, failing);
}

/**
 * cargo-nextest: `Summary [   1.2s] 12 tests run: 11 passed, 1 failed, 2 skipped` (`5/12 tests run` when a failure
 * cancelled the rest), failing tests as `FAIL [   0.004s] crate tests::name` (also TIMEOUT or a signal). Read before
 * cargo's reader: a failing test's captured output holds libtest's own `test result:` line.
 */
export function nextest(t: string): TestReport | null {
  const line = lastMatch(t, /^\s*Summary \[\s*[\d.]+s\] \d+(?:\/\d+)? tests? run: (.+)$/gm);
  if (!line) return null;
  const part = (name: string) => n(new RegExp(`(\\d+) ${name}`).exec(line[1] ?? '')?.[1]);
  const failing = [
    ...t.matchAll(
      /^\s*(?:FAIL|TIMEOUT|SIG[A-Z]+|ABORT|LEAK-FAIL) \[\s*[\d.]+s\](?: \(\s*\d+\/\d+\))? (.+?)\s*$/gm,
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
    [...t.matchAll(/^(?:\d+:)+\d+ \+\d+(?: ~\d+)? -\d+: (.+?) \[E\]\s*$/gm)].map((m) => m[1] ?? ''),
  );
  return report('dart', n(line[1]), n(line[3]), n(line[2]), failing);
}
