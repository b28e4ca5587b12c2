import type { TestReport } from './test-output.js';
import { lastMatch, n, report, unique } from './summary-parts.js';

/**
 * Apple's runners: XCTest and swift-testing (both print in one `swift test`), and `xcodebuild test`, which runs them
 * and ends with `** TEST SUCCEEDED **` or `** TEST FAILED **`.
 */

interface Counts {
  total: number;
  failed: number;
  skipped: number;
  failing: string[];
}

/** `-[Module.Class testName]` (macOS) reads as `Module.Class.testName`, as Linux prints it. */
const caseName = (s: string) => s.replace(/^-\[(.+) (\S+)\]$/, '$1.$2');

/**
 * XCTest: the last `Executed 12 tests, with 1 test skipped and 2 failures (0 unexpected) in ...` line is the total
 * (each suite prints its own before it). Failures count assertions, so the failed tests are counted from their
 * `Test Case '...' failed` lines when the output holds them.
 */
function xcTest(t: string): Counts | null {
  const line = lastMatch(
    t,
    /(?:Total e|E)xecuted (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures? \(\d+ unexpected\)/g,
  );
  if (!line) return null;
  const failing = unique(
    [...t.matchAll(/Test [Cc]ase '([^']+)' failed\b/g)].map((m) => caseName(m[1] ?? '')),
  );
  const failures = n(line[3]);
  return {
    total: n(line[1]),
    failed: failing.length > 0 ? failing.length : failures,
    skipped: n(line[2]),
    failing,
  };
}

/** A swift-testing event line: its symbol (SF Symbols on macOS, ✔ ✘ ➜ ◇ elsewhere), then `Test <name> <what>`. */
const event = (what: string) => new RegExp(`^[^\\w\\s"]*\\s*Test (?!run with )(.+?) ${what}`, 'gm');
const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1');

/**
 * swift-testing: `✔ Test run with 5 tests in 2 suites passed after 0.01 seconds.` or `✘ Test run with 3 tests failed
 * after 0.2 seconds with 1 issue.`; failing tests as `✘ Test foo() failed after ...`, skipped as `➜ Test bar() skipped`.
 * The run's count includes the skipped tests.
 */
function swiftTesting(t: string): Counts | null {
  const line = lastMatch(
    t,
    /Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed) after [\d.]+ seconds?/g,
  );
  if (!line) return null;
  const failing = unique([...t.matchAll(event('failed after'))].map((m) => unquote(m[1] ?? '')));
  const skipped = unique([...t.matchAll(event('skipped'))].map((m) => m[1] ?? '')).length;
  return {
    total: n(line[1]),
    failed: failing.length > 0 || line[2] === 'passed' ? failing.length : 1,
    skipped,
    failing,
  };
}

/** The test names xcodebuild lists under `Failing tests:` (a target's name ends with a colon and is left out). */
function failingList(t: string): string[] {
  const at = t.search(/^Failing tests:[ \t]*$/m);
  if (at < 0) return [];
  const names: string[] = [];
  for (const line of t.slice(at).split('\n').slice(1)) {
    if (!/^[ \t]+\S/.test(line)) break;
    if (!/:[ \t]*$/.test(line)) names.push(caseName(line.trim()));
  }
  return names;
}

/**
 * `swift test` / `xcodebuild test`: XCTest's and swift-testing's totals added up (a package may hold both; XCTest
 * then often reports `Executed 0 tests`). xcodebuild's `** TEST FAILED **` without counts nor failing tests is a
 * build that failed before the tests: no result.
 */
export function swift(t: string): TestReport | null {
  const xc = xcTest(t);
  const st = swiftTesting(t);
  // XCTest's empty harness run, then swift-testing cut off before its summary: no result yet
  if (xc?.total === 0 && !st && /Test run started\./.test(t)) return null;
  const parts = [xc, st].filter((c): c is Counts => c !== null);
  const verdict = lastMatch(t, /^\*\* TEST (?:EXECUTE )?(SUCCEEDED|FAILED) \*\*/gm)?.[1] ?? null;
  const runner = verdict ? 'xcodebuild' : 'swift';
  const listed = failingList(t);
  if (parts.length === 0) {
    if (verdict === 'SUCCEEDED') return report(runner, null, 0, null, []);
    if (verdict === 'FAILED' && listed.length > 0) return report(runner, null, listed.length, null, listed);
    return null;
  }
  const sum = (k: 'total' | 'failed' | 'skipped') => parts.reduce((s, c) => s + c[k], 0);
  const named = unique(parts.flatMap((c) => c.failing));
  const failing = named.length > 0 ? named : listed;
  const failed = Math.max(sum('failed'), verdict === 'FAILED' ? Math.max(1, failing.length) : 0);
  return report(runner, sum('total') - failed - sum('skipped'), failed, sum('skipped'), failing);
}
