import { describe, expect, it } from 'vitest';
import { readTestOutput } from './test-output.js';
import { counts, lines } from '../../../test/helpers/test-reports.js';

describe('Playwright Test', () => {
  it('a green run: the timed passed line', () => {
    const out = lines(
      'Running 6 tests using 3 workers',
      '',
      '  ✓  1 [chromium] › tests/home.spec.ts:3:5 › has title (812ms)',
      '  ✓  2 [chromium] › tests/home.spec.ts:9:5 › nav works (1.1s)',
      '',
      '  6 passed (4.1s)',
      '',
      'To open last HTML report run:',
      '',
      '  npx playwright show-report',
    );
    expect(counts(out)).toEqual({ runner: 'playwright', passed: 6, failed: 0, skipped: 0, failing: [] });
  });

  it('a red run: failed tests named under the count, flaky ones passed on retry, skipped counted', () => {
    const out = lines(
      'Running 5 tests using 2 workers',
      '',
      '  ✓  1 [chromium] › tests/home.spec.ts:3:5 › has title (812ms)',
      '  ✘  2 [chromium] › tests/login.spec.ts:8:5 › signs in (5.0s)',
      '  -  3 [chromium] › tests/admin.spec.ts:4:5 › admin panel',
      '',
      '  1) [chromium] › tests/login.spec.ts:8:5 › signs in ───────────────────────────',
      '',
      '    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()',
      '',
      "    Locator: getByText('Welcome')",
      '    Expected: visible',
      '',
      "    > 11 |   await expect(page.getByText('Welcome')).toBeVisible();",
      '',
      '  1 failed',
      '    [chromium] › tests/login.spec.ts:8:5 › signs in ────────────────────────────',
      '  1 flaky',
      '    [firefox] › tests/home.spec.ts:9:5 › nav works ─────────────────────────────',
      '  1 skipped',
      '  2 passed (9.8s)',
    );
    expect(counts(out)).toEqual({
      runner: 'playwright',
      passed: 3,
      failed: 1,
      skipped: 1,
      failing: ['[chromium] › tests/login.spec.ts:8:5 › signs in'],
    });
  });

  it('only the tail of an all-red run (no passed line) still reads, by its titles', () => {
    const out = lines(
      '  2 failed',
      '    [chromium] › tests/login.spec.ts:8:5 › signs in ──────────',
      '    [webkit] › tests/login.spec.ts:8:5 › signs in ────────────',
      '  1 did not run',
    );
    expect(counts(out)).toEqual({
      runner: 'playwright',
      passed: 0,
      failed: 2,
      skipped: 1,
      failing: [
        '[chromium] › tests/login.spec.ts:8:5 › signs in',
        '[webkit] › tests/login.spec.ts:8:5 › signs in',
      ],
    });
  });

  it('a run cut off before its summary reports nothing; a later run in the same output is the one read', () => {
    expect(
      readTestOutput(
        'Running 5 tests using 2 workers\n\n  ✓  1 [chromium] › tests/home.spec.ts:3:5 › has title (812ms)',
      ),
    ).toBeNull();
    const twice = lines(
      'Running 1 test using 1 worker',
      '  1 failed',
      '    [chromium] › tests/login.spec.ts:8:5 › signs in',
      'Running 1 test using 1 worker',
      '  1 passed (1.2s)',
    );
    expect(counts(twice)).toMatchObject({ passed: 1, failed: 0, failing: [] });
  });
});

describe('vitest and jest: a test file that failed to load fails the run', () => {
  it('vitest: a file failing to import beside passing tests, no tests at all, an unhandled error', () => {
    const beside = lines(
      ' FAIL  src/store.test.ts [ src/store.test.ts ]',
      'Error: Failed to resolve import "./store" from "src/store.test.ts". Does the file exist?',
      '',
      ' Test Files  1 failed | 3 passed (4)',
      '      Tests  20 passed (20)',
      '   Start at  10:00:00',
    );
    expect(counts(beside)).toEqual({
      runner: 'vitest',
      passed: 20,
      failed: 1,
      skipped: null,
      failing: ['src/store.test.ts'],
    });
    const none =
      ' FAIL  src/store.test.ts [ src/store.test.ts ]\n\n Test Files  1 failed (1)\n      Tests  no tests\n';
    expect(counts(none)).toMatchObject({ passed: 0, failed: 1, failing: ['src/store.test.ts'] });
    const unhandled = ' Test Files  2 passed (2)\n      Tests  8 passed (8)\n     Errors  1 error\n';
    expect(counts(unhandled)).toMatchObject({ passed: 8, failed: 1 });
    expect(counts(' Test Files  2 passed (2)\n      Tests  8 passed (8)\n')).toMatchObject({
      failed: 0,
      failing: [],
    });
  });

  it('jest: a suite that failed to run', () => {
    const out = lines(
      ' FAIL  src/store.test.js',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module './store' from 'src/store.test.js'",
      '',
      'Test Suites: 1 failed, 2 passed, 3 total',
      'Tests:       9 passed, 9 total',
    );
    expect(counts(out)).toEqual({
      runner: 'jest',
      passed: 9,
      failed: 1,
      skipped: null,
      failing: ['Test suite failed to run'],
    });
  });
});

describe("node's test runner", () => {
  it('the spec reporter: the failures listed again at the end, cancelled tests counted as failed', () => {
    const out = lines(
      '▶ Calculator',
      '  ✔ adds (0.512ms)',
      '  ✖ divides (1.204ms)',
      '    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '▶ Calculator (2.113ms)',
      'ℹ tests 3',
      'ℹ suites 1',
      'ℹ pass 1',
      'ℹ fail 1',
      'ℹ cancelled 1',
      'ℹ skipped 0',
      'ℹ todo 0',
      'ℹ duration_ms 45.2',
      '',
      '✖ failing tests:',
      '',
      'test at test/calc.test.js:8:3',
      '✖ divides (1.204ms)',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    );
    expect(counts(out)).toEqual({ runner: 'node', passed: 1, failed: 2, skipped: 0, failing: ['divides'] });
  });
});

describe('mocha', () => {
  it('passing, pending and failing, with the failing titles joined from the numbered list', () => {
    const out = lines(
      '',
      '  Calculator',
      '    add()',
      '      ✔ adds two numbers',
      '      1) adds negatives',
      '    divide()',
      '      ✔ divides',
      '      - handles zero',
      '',
      '',
      '  2 passing (14ms)',
      '  1 pending',
      '  1 failing',
      '',
      '  1) Calculator',
      '       add()',
      '         adds negatives:',
      '',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '',
      '-2 !== -3',
      '',
      '      at Context.<anonymous> (test/calc.test.js:12:14)',
      '',
    );
    expect(counts(out)).toEqual({
      runner: 'mocha',
      passed: 2,
      failed: 1,
      skipped: 1,
      failing: ['Calculator add() adds negatives'],
    });
  });

  it('a green run, a failing hook, and a run cut off before its epilogue', () => {
    expect(counts('\n  12 passing (40ms)\n\n')).toEqual({
      runner: 'mocha',
      passed: 12,
      failed: 0,
      skipped: 0,
      failing: [],
    });
    const hook = lines(
      '  0 passing (3ms)',
      '  1 failing',
      '',
      '  1) Store',
      '       "before all" hook for "saves":',
      '     Error: connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(counts(hook)).toMatchObject({ failed: 1, failing: ['Store "before all" hook for "saves"'] });
    expect(readTestOutput('  Calculator\n    add()\n      ✔ adds two numbers\n')).toBeNull();
  });
});

describe('Jasmine, Karma and AVA', () => {
  it('Jasmine: specs, failures, pending, and the failures under their heading', () => {
    const out = lines(
      'Randomized with seed 12345',
      'Started',
      '..F*',
      '',
      'Failures:',
      '1) Calculator divides',
      '  Message:',
      '    Expected 2 to be 3.',
      '',
      'Pending:',
      '',
      '1) Calculator slow',
      '  Temporarily disabled with xit',
      '',
      '4 specs, 1 failure, 1 pending spec',
      'Finished in 0.012 seconds',
    );
    expect(counts(out)).toEqual({
      runner: 'jasmine',
      passed: 2,
      failed: 1,
      skipped: 1,
      failing: ['Calculator divides'],
    });
  });

  it('Karma (ng test): the TOTAL line, the last Executed line, and a run cut off mid-way', () => {
    const red = lines(
      'Chrome Headless 120.0.6099.109 (Linux x86_64) AppComponent should render title FAILED',
      "\tExpected 'Welcome' to contain 'app'.",
      'Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 3 of 3 (1 FAILED) (0.112 secs / 0.08 secs)',
      'TOTAL: 1 FAILED, 2 SUCCESS',
    );
    expect(counts(red)).toEqual({
      runner: 'karma',
      passed: 2,
      failed: 1,
      skipped: 0,
      failing: ['AppComponent should render title'],
    });
    const green =
      'Chrome Headless 120.0 (Linux x86_64): Executed 1 of 12 SUCCESS (0 secs / 0.01 secs)\rChrome Headless 120.0 (Linux x86_64): Executed 12 of 12 (skipped 2) SUCCESS (0.3 secs / 0.2 secs)';
    expect(counts(green)).toMatchObject({ runner: 'karma', passed: 12, failed: 0, skipped: 2 });
    expect(
      readTestOutput('Chrome Headless 120.0 (Linux x86_64): Executed 5 of 12 SUCCESS (0 secs / 0.01 secs)'),
    ).toBeNull();
  });

  it('AVA: its closing counts and the failing tests', () => {
    const out = lines(
      '  ✔ adds',
      '  ✘ [fail]: divides  Difference (- actual, + expected):',
      '  ─',
      '',
      '  1 test failed',
      '  1 known failure',
      '  1 test skipped',
      '  2 tests passed',
    );
    expect(counts(out)).toEqual({ runner: 'ava', passed: 3, failed: 1, skipped: 1, failing: ['divides'] });
    expect(readTestOutput('  ✔ adds\n  ✔ subtracts')).toBeNull();
  });
});
