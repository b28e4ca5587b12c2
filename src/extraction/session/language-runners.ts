import type { TestReport } from './test-output.js';
import { lastMatch, n, report } from './summary-parts.js';

/**
 * The runners of the languages with one common runner each: Scala (sbt), Clojure, Haskell (tasty; hspec prints as
 * RSpec does and is read by its reader), OCaml (alcotest), Julia, R (testthat), Perl (prove), Lua (busted).
 */

/**
 * sbt: `Passed: Total 12, Failed 0, Errors 0, Passed 12` (`[error] Failed: Total 13, Failed 1, ...`), or ScalaTest's
 * `Tests: succeeded 12, failed 1, canceled 0, ignored 2, pending 0`; failing tests as `*** FAILED ***` lines.
 */
export function sbt(t: string): TestReport | null {
  const failing = [...t.matchAll(/^(?:\[\w+\]\s+)?- (.+?) \*\*\* FAILED \*\*\*/gm)].map((m) => m[1] ?? '');
  const total = lastMatch(
    t,
    /(?:Passed|Failed): Total (\d+), Failed (\d+), Errors (\d+), Passed (\d+)(?:, Skipped (\d+))?/g,
  );
  if (total) return report('sbt', n(total[4]), n(total[2]) + n(total[3]), n(total[5]), failing);
  const scala = lastMatch(
    t,
    /Tests: succeeded (\d+), failed (\d+), canceled (\d+), ignored (\d+), pending (\d+)/g,
  );
  if (!scala) return null;
  return report('sbt', n(scala[1]), n(scala[2]) + n(scala[3]), n(scala[4]) + n(scala[5]), failing);
}

/** clojure.test (`lein test`, `clojure -X:test`): `Ran 12 tests containing 30 assertions.` then `1 failures, 0 errors.` */
export function clojureTest(t: string): TestReport | null {
  const line = lastMatch(
    t,
    /^Ran (\d+) tests? containing \d+ assertions?\.\s*\n(\d+) failures?, (\d+) errors?\./gm,
  );
  if (!line) return null;
  const failing = [...t.matchAll(/^(?:FAIL|ERROR) in \((\S+?)\)/gm)].map((m) => m[1] ?? '');
  const failedTests = new Set(failing).size;
  const failed = failedTests > 0 ? failedTests : Math.min(n(line[1]), n(line[2]) + n(line[3]));
  return report('clojure', n(line[1]) - failed, failed, 0, failing);
}

/** Haskell's tasty: `All 12 tests passed (0.01s)` or `2 out of 12 tests failed (0.02s)`. */
export function tasty(t: string): TestReport | null {
  const green = lastMatch(t, /^All (\d+) tests passed \([\d.]+s\)/gm);
  if (green) return report('tasty', n(green[1]), 0, 0, []);
  const red = lastMatch(t, /^(\d+) out of (\d+) tests failed \([\d.]+s\)/gm);
  if (!red) return null;
  const failing = [...t.matchAll(/^[ \t]+(\S.*?):\s+FAIL\b/gm)].map((m) => m[1] ?? '');
  return report('tasty', n(red[2]) - n(red[1]), n(red[1]), 0, failing);
}

/** OCaml's alcotest (`dune test`): `Test Successful in 0.001s. 12 tests run.` or `2 failures! in 0.002s. 12 tests run.` */
export function alcotest(t: string): TestReport | null {
  const line = lastMatch(t, /^(?:Test Successful|(\d+) failures?!) in [\d.]+s\. (\d+) tests? run\./gm);
  if (!line) return null;
  const failing = [...t.matchAll(/^[ \t]*\[FAIL\]\s+(.+?)\.?[ \t]*$/gm)].map(
    (m) => m[1]?.replace(/\s+/g, ' ') ?? '',
  );
  return report('alcotest', n(line[2]) - n(line[1]), n(line[1]), 0, failing);
}

/**
 * Julia's `Test Summary: | Pass  Fail  Error  Broken  Total  Time` header and the counts under it (only the columns
 * with counts are printed), or `Some tests did not pass: 10 passed, 1 failed, 0 errored, 0 broken.`
 */
export function julia(t: string): TestReport | null {
  const at = lastMatch(t, /^Test Summary:\s*\|([^\n]+)\n([^\n|]*\|[^\n]+)/gm);
  const said = lastMatch(
    t,
    /Some tests did not pass: (\d+) passed, (\d+) failed, (\d+) errored, (\d+) broken/g,
  );
  if (!at) return said ? report('julia', n(said[1]), n(said[2]) + n(said[3]), n(said[4]), []) : null;
  const names = (at[1] ?? '').trim().split(/\s+/);
  const values = (at[2] ?? '').split('|')[1]?.trim().split(/\s+/) ?? [];
  const get = (k: string) => n(values[names.indexOf(k)]);
  if (!names.includes('Total')) return null;
  return report('julia', get('Pass'), get('Fail') + get('Error'), get('Broken'), []);
}

/** R's testthat: `[ FAIL 1 | WARN 0 | SKIP 2 | PASS 30 ]`; failures as `── Failure ('test-calc.R:12'): divides ──`. */
export function testthat(t: string): TestReport | null {
  const line = lastMatch(t, /\[ FAIL (\d+) \| WARN \d+ \| SKIP (\d+) \| PASS (\d+) \]/g);
  if (!line) return null;
  const failing = [...t.matchAll(/^── (?:Failure|Error) \([^)]*\): (.+?) ─+[ \t]*$/gm)].map(
    (m) => m[1] ?? '',
  );
  return report('testthat', n(line[3]), n(line[1]), n(line[2]), failing);
}

/**
 * Perl's prove: `Files=3, Tests=42, ...` then `Result: PASS`, or `Failed 2/42 subtests` per file and `Result: FAIL`;
 * the failing test files listed under `Test Summary Report` (`t/calc.t (Wstat: 256 Tests: 12 Failed: 2)`).
 */
export function prove(t: string): TestReport | null {
  const line = lastMatch(t, /^Files=\d+, Tests=(\d+),/gm);
  if (!line) return null;
  const files = [...t.matchAll(/^(\S+)\s+\(Wstat: \d+(?: \([^)]*\))? Tests: \d+ Failed: (\d+)\)/gm)];
  const failed = files.reduce((s, m) => s + n(m[2]), 0);
  const result = /^Result: FAIL/m.test(t);
  const count = result && failed === 0 ? 1 : failed;
  return report(
    'prove',
    n(line[1]) - failed,
    count,
    null,
    files.map((m) => m[1] ?? ''),
  );
}

/** Lua's busted: `12 successes / 1 failure / 0 errors / 2 pending : 0.1 seconds`; failures as `Failure → spec/x.lua @ 3`. */
export function busted(t: string): TestReport | null {
  const line = lastMatch(t, /^(\d+) successes? \/ (\d+) failures? \/ (\d+) errors? \/ (\d+) pending/gm);
  if (!line) return null;
  const failing = [...t.matchAll(/^(?:Failure|Error) → \S+ @ \d+\n(.+)$/gm)].map((m) => m[1] ?? '');
  return report('busted', n(line[1]), n(line[2]) + n(line[3]), n(line[4]), failing);
}
