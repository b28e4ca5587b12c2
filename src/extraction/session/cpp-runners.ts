import type { TestReport } from './test-output.js';
import { lastMatch, n, report, unique } from './summary-parts.js';

/**
 * C and C++ runners and the build tools that run them: CTest, Meson, Bazel, GoogleTest, Catch2 and doctest, and
 * Automake's test driver (whose `PASS:` / `FAIL:` lines many shell test scripts print too).
 */

/** The `  2 - name (Failed)` items CTest lists under a header (`The following tests FAILED:`). */
function ctestList(t: string, header: RegExp): string[] {
  const at = t.search(header);
  if (at < 0) return [];
  const names: string[] = [];
  for (const line of t.slice(at).split('\n').slice(1)) {
    const item = /^[ \t]*\d+ - (.+?) \([^)]*\)[ \t]*$/.exec(line);
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
  const line = lastMatch(t, /^[ \t]*\d+% tests passed(?:, (\d+) tests? failed)? out of (\d+)/gm);
  if (!line) return null;
  const failing = ctestList(t, /^The following tests FAILED:[ \t]*$/m);
  const notRun = ctestList(t, /^The following tests did not run:[ \t]*$/m);
  const skipped = notRun.length > 0 ? notRun.length : [...t.matchAll(/\*\*\*(?:Skipped|Not Run)\b/g)].length;
  const failed = n(line[1]);
  return report('ctest', n(line[2]) - failed - skipped, failed, skipped, failing);
}

/** A `Label:   12` line of Meson's summary, 0 when absent. */
const mesonCount = (block: string, label: string) =>
  n(new RegExp(`^${label}:\\s+(\\d+)`, 'm').exec(block)?.[1]);

/**
 * `meson test`: the `Ok: / Expected Fail: / Fail: / Unexpected Pass: / Skipped: / Timeout:` block; failing tests as
 * ` 2/12 calc:unit / divides   FAIL   0.01s   exit status 1`.
 */
export function meson(t: string): TestReport | null {
  const at = t.search(/^Ok:\s+\d+[ \t]*$/m);
  if (at < 0 || !/^Fail:\s+\d+/m.test(t.slice(at))) return null;
  const block = t.slice(at, at + 400);
  const failing = [...t.matchAll(/^[ \t]*\d+\/\d+ (.+?)\s+(?:FAIL|TIMEOUT|UNEXPECTEDPASS)\s+[\d.]+s/gm)].map(
    (m) => m[1] ?? '',
  );
  return report(
    'meson',
    mesonCount(block, 'Ok') + mesonCount(block, 'Expected Fail'),
    mesonCount(block, 'Fail') + mesonCount(block, 'Unexpected Pass') + mesonCount(block, 'Timeout'),
    mesonCount(block, 'Skipped'),
    failing,
  );
}

/**
 * `bazel test`: `Executed 2 out of 3 tests: 1 test passes, 1 fails locally, and 1 was skipped.` and a line per
 * target (`//calc:parser_test   FAILED in 0.2s`); the sentence may leave failures out, the target lines do not.
 */
export function bazel(t: string): TestReport | null {
  const line = lastMatch(t, /^Executed \d+ out of \d+ tests?: (.+)$/gm);
  if (!line) return null;
  const said = line[1] ?? '';
  const part = (re: RegExp) => n(re.exec(said)?.[1]);
  const failing = [...t.matchAll(/^(\/\/\S+)\s+(?:\(cached\) )?(?:FAILED|TIMEOUT|INCOMPLETE)\b/gm)].map(
    (m) => m[1] ?? '',
  );
  const failed = Math.max(part(/(\d+) fails? locally/) + part(/(\d+) fails? to build/), failing.length);
  return report('bazel', part(/(\d+) tests? pass/), failed, part(/(\d+) (?:was|were) skipped/), failing);
}

/**
 * GoogleTest: `[==========] 3 tests from 1 test suite ran.`, `[  PASSED  ] 2 tests.`, `[  FAILED  ] 1 test, listed
 * below:` followed by the failing tests, `[  SKIPPED ] 1 test, listed below:`.
 */
export function googleTest(t: string): TestReport | null {
  const ran = lastMatch(t, /^\[=+\] (\d+) tests? from \d+ test (?:suites?|cases?) ran\./gm);
  if (!ran) return null;
  const failed = n(lastMatch(t, /^\[ {2}FAILED {2}\] (\d+) tests?, listed below:/gm)?.[1]);
  const skipped = n(lastMatch(t, /^\[ {2}SKIPPED \] (\d+) tests?, listed below:/gm)?.[1]);
  const failing = [...t.matchAll(/^\[ {2}FAILED {2}\] ([A-Za-z_][\w/.:<>-]*)/gm)].map((m) => m[1] ?? '');
  return report('googletest', n(ran[1]) - failed - skipped, failed, skipped, failing);
}

/**
 * Catch2 and doctest: `test cases: 3 | 2 passed | 1 failed | 0 skipped` (doctest prefixes `[doctest] `), or
 * Catch2's `All tests passed (12 assertions in 3 test cases)`.
 */
export function catch2(t: string): TestReport | null {
  const green = lastMatch(t, /^All tests passed \(\d+ assertions? in (\d+) test cases?\)/gm);
  if (green) return report('catch2', n(green[1]), 0, 0, []);
  const line = lastMatch(
    t,
    /^(\[doctest\] )?test cases:\s*(\d+) \|\s*(\d+) passed \|\s*(\d+) failed(?: \|\s*(\d+) skipped)?/gm,
  );
  if (!line) return null;
  // doctest names a failing test `TEST CASE:  name`; Catch2 heads its failure between two rules of dashes
  const failing = [
    ...[...t.matchAll(/^TEST CASE:\s+(.*\S)[ \t]*$/gm)].map((m) => m[1] ?? ''),
    ...[...t.matchAll(/^-{20,}\n(\S.*?)\s*\n(?: {2}.*\n)*-{20,}\n/gm)].map((m) => m[1] ?? ''),
  ];
  return report(line[1] ? 'doctest' : 'catch2', n(line[3]), n(line[4]), n(line[5]), failing);
}

/**
 * Automake's test driver (`make check`): a line per test, `PASS: tests/a.sh`, `FAIL: tests/b.sh` (also XFAIL, XPASS,
 * SKIP, ERROR), and a summary, `# PASS:  2`, `# FAIL:  1`; shell test scripts print the same lines for their checks.
 * The summary when there is one, else the lines counted; an unexpected pass (XPASS) or an error fails the run too.
 */
export function automake(t: string): TestReport | null {
  const total = (name: string) => {
    const m = lastMatch(t, new RegExp(String.raw`^# ${name}:\s+(\d+)[ \t]*$`, 'gm'));
    return m ? n(m[1]) : null;
  };
  const lines = (verdict: string) =>
    [...t.matchAll(new RegExp(String.raw`^${verdict}: (.*\S)[ \t]*$`, 'gm'))].map((m) => m[1] ?? '');
  const failing = unique([...lines('FAIL'), ...lines('XPASS'), ...lines('ERROR')]);
  const passed = total('PASS') ?? lines('PASS').length;
  const failed =
    total('PASS') !== null
      ? (total('FAIL') ?? 0) + (total('XPASS') ?? 0) + (total('ERROR') ?? 0)
      : failing.length;
  if (passed + failed === 0) return null;
  return report('automake', passed, failed, total('SKIP') ?? (lines('SKIP').length || null), failing);
}
