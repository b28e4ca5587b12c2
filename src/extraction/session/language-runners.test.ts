import { describe, expect, it } from 'vitest';
import { readTestOutput } from './test-output.js';
import { counts, lines } from '../../../test/helpers/test-reports.js';

describe('the runners of Scala, Clojure, Haskell, OCaml, Julia, R, Perl and Lua', () => {
  it("sbt: the Total line, ScalaTest's counts, the FAILED tests", () => {
    const out = lines(
      '[info] CalcSpec:',
      '[info] - should add',
      '[info] - should divide *** FAILED ***',
      '[info]   2 did not equal 3 (CalcSpec.scala:12)',
      '[info] Tests: succeeded 1, failed 1, canceled 0, ignored 1, pending 0',
      '[info] *** 1 TEST FAILED ***',
      '[error] Failed: Total 3, Failed 1, Errors 0, Passed 1, Skipped 1',
    );
    expect(counts(out)).toEqual({
      runner: 'sbt',
      passed: 1,
      failed: 1,
      skipped: 1,
      failing: ['should divide'],
    });
    expect(
      counts(
        '[info] Tests: succeeded 12, failed 0, canceled 0, ignored 0, pending 0\n[info] All tests passed.',
      ),
    ).toMatchObject({
      runner: 'sbt',
      passed: 12,
      failed: 0,
    });
  });

  it('clojure.test: Ran N tests, failures and errors, the failing tests', () => {
    const out = lines(
      'lein test calc.core-test',
      '',
      'FAIL in (test-divide) (core_test.clj:12)',
      'expected: (= 3 (divide 6 2))',
      '  actual: (not (= 3 2))',
      '',
      'Ran 4 tests containing 9 assertions.',
      '1 failures, 0 errors.',
      'Tests failed.',
    );
    expect(counts(out)).toEqual({
      runner: 'clojure',
      passed: 3,
      failed: 1,
      skipped: 0,
      failing: ['test-divide'],
    });
  });

  it("Haskell's tasty and OCaml's alcotest", () => {
    const tasty = lines(
      'Tests',
      '  Calc',
      '    adds:    OK',
      '    divides: FAIL',
      '',
      '1 out of 2 tests failed (0.01s)',
    );
    expect(counts(tasty)).toEqual({
      runner: 'tasty',
      passed: 1,
      failed: 1,
      skipped: 0,
      failing: ['divides'],
    });
    expect(counts('All 12 tests passed (0.02s)')).toMatchObject({ runner: 'tasty', passed: 12, failed: 0 });
    const alcotest = lines(
      "Testing `calc'.",
      '  [OK]          calc          0   adds.',
      '  [FAIL]        calc          1   divides.',
      '1 failure! in 0.002s. 2 tests run.',
    );
    expect(counts(alcotest)).toEqual({
      runner: 'alcotest',
      passed: 1,
      failed: 1,
      skipped: 0,
      failing: ['calc 1 divides'],
    });
  });

  it("Julia's Test Summary table, and its error sentence alone", () => {
    const out = lines(
      'Test Summary: | Pass  Fail  Broken  Total  Time',
      'Calc          |   10     1       1     12  0.4s',
    );
    expect(counts(out)).toEqual({ runner: 'julia', passed: 10, failed: 1, skipped: 1, failing: [] });
    expect(
      counts('ERROR: LoadError: Some tests did not pass: 10 passed, 1 failed, 0 errored, 0 broken.'),
    ).toMatchObject({
      runner: 'julia',
      failed: 1,
    });
  });

  it("R's testthat, Perl's prove, Lua's busted", () => {
    const r = lines(
      '══ Failed tests ════════════════════════════════════════════════',
      "── Failure ('test-calc.R:12:3'): divides ───────────────────────",
      '`divide(6, 2)` not equal to 2.',
      '',
      '[ FAIL 1 | WARN 0 | SKIP 2 | PASS 30 ]',
    );
    expect(counts(r)).toEqual({
      runner: 'testthat',
      passed: 30,
      failed: 1,
      skipped: 2,
      failing: ['divides'],
    });
    const perl = lines(
      't/basic.t .. ok',
      't/calc.t ... 1/12 # Failed test 3',
      't/calc.t ... Dubious, test returned 2 (wstat 512, 0x200)',
      'Failed 2/12 subtests',
      '',
      'Test Summary Report',
      '-------------------',
      't/calc.t (Wstat: 512 (exited 2) Tests: 12 Failed: 2)',
      '  Failed tests:  3, 7',
      'Files=2, Tests=42,  0 wallclock secs ( 0.02 usr  0.01 sys +  0.10 cusr  0.02 csys =  0.15 CPU)',
      'Result: FAIL',
    );
    expect(counts(perl)).toEqual({
      runner: 'prove',
      passed: 40,
      failed: 2,
      skipped: null,
      failing: ['t/calc.t'],
    });
    expect(
      counts('t/basic.t .. ok\nAll tests successful.\nFiles=1, Tests=8,  0 wallclock secs\nResult: PASS'),
    ).toMatchObject({
      runner: 'prove',
      passed: 8,
      failed: 0,
    });
    const lua = lines(
      '●●●◼',
      '3 successes / 1 failure / 0 errors / 0 pending : 0.012 seconds',
      '',
      'Failure → spec/calc_spec.lua @ 5',
      'calc divides',
      'spec/calc_spec.lua:7: Expected objects to be the same.',
    );
    expect(counts(lua)).toEqual({
      runner: 'busted',
      passed: 3,
      failed: 1,
      skipped: 0,
      failing: ['calc divides'],
    });
  });

  it('outputs cut off before their summaries report nothing', () => {
    for (const cut of [
      '[info] CalcSpec:\n[info] - should add',
      'lein test calc.core-test\n',
      'Tests\n  Calc\n    adds:    OK',
      't/basic.t .. ok\nt/calc.t ... 1/12',
      '●●●',
    ])
      expect(readTestOutput(cut)).toBeNull();
  });
});
