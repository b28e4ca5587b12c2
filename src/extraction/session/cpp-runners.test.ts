import { describe, expect, it } from 'vitest';
import { readTestOutput } from './test-output.js';
import { counts, lines } from '../../../test/helpers/test-reports.js';

describe('CTest', () => {
  it('skipped tests are in the total and listed as not run', () => {
    const out = lines(
      'Test project /src/build',
      '    Start 1: parser_test',
      '1/3 Test #1: parser_test ......................   Passed    0.02 sec',
      '3/3 Test #3: gpu_test .........................***Skipped   0.00 sec',
      '',
      '100% tests passed, 0 tests failed out of 3',
      '',
      'Total Test time (real) =   0.04 sec',
      '',
      'The following tests did not run:',
      '\t  3 - gpu_test (Skipped)',
    );
    expect(counts(out)).toEqual({ runner: 'ctest', passed: 2, failed: 0, skipped: 1, failing: [] });
  });

  it('failed tests named from the FAILED list; the CMake 4 summary without a failed part', () => {
    const out = lines(
      '2/4 Test #2: lexer_test .......................***Failed    0.01 sec',
      '4/4 Test #4: io_test ..........................***Timeout  10.00 sec',
      '50% tests passed, 2 tests failed out of 4',
      '',
      'Total Test time (real) =  10.05 sec',
      '',
      'The following tests FAILED:',
      '\t  2 - lexer_test (Failed)',
      '\t  4 - io_test (Timeout)',
      'Errors while running CTest',
    );
    expect(counts(out)).toEqual({
      runner: 'ctest',
      passed: 2,
      failed: 2,
      skipped: 0,
      failing: ['lexer_test', 'io_test'],
    });
    expect(counts('100% tests passed out of 8\n')).toMatchObject({ runner: 'ctest', passed: 8, failed: 0 });
    expect(readTestOutput('Test project /src/build\n    Start 1: parser_test\n')).toBeNull();
  });
});

describe('meson test', () => {
  it('the Ok / Fail / Skipped block and the FAIL lines', () => {
    const out = lines(
      'ninja: Entering directory `/src/build`',
      ' 1/3 calc:unit / adds          OK              0.01s',
      ' 2/3 calc:unit / divides       FAIL            0.02s   exit status 1',
      ' 3/3 calc:unit / gpu           SKIP            0.00s',
      '',
      'Ok:                 1',
      'Expected Fail:      0',
      'Fail:               1',
      'Unexpected Pass:    0',
      'Skipped:            1',
      'Timeout:            0',
      '',
      'Full log written to /src/build/meson-logs/testlog.txt',
    );
    expect(counts(out)).toEqual({
      runner: 'meson',
      passed: 1,
      failed: 1,
      skipped: 1,
      failing: ['calc:unit / divides'],
    });
    expect(readTestOutput(' 1/3 calc:unit / adds          OK              0.01s')).toBeNull();
  });
});

describe('bazel test', () => {
  it('the Executed sentence, and the target lines when it leaves the failures out', () => {
    const out = lines(
      '//calc:calc_test                                                 PASSED in 0.3s',
      '//calc:parser_test                                               FAILED in 0.2s',
      '  /home/u/.cache/bazel/_bazel_u/abc/execroot/_main/bazel-out/k8-fastbuild/testlogs/calc/parser_test/test.log',
      '//calc:slow_test                                                 TIMEOUT in 60.0s',
      '',
      'Executed 3 out of 3 tests: 1 test passes.',
      'INFO: Build completed, 2 tests FAILED, 12 total actions',
    );
    expect(counts(out)).toEqual({
      runner: 'bazel',
      passed: 1,
      failed: 2,
      skipped: 0,
      failing: ['//calc:parser_test', '//calc:slow_test'],
    });
    const cached = lines(
      '//calc:calc_test                                        (cached) PASSED in 0.3s',
      '//gpu:kernel_test                                                SKIPPED',
      'Executed 0 out of 2 tests: 1 test passes and 1 was skipped.',
    );
    expect(counts(cached)).toMatchObject({ passed: 1, failed: 0, skipped: 1 });
  });
});

describe('GoogleTest', () => {
  it('ran, passed, skipped and the failing tests listed', () => {
    const out = lines(
      '[==========] Running 4 tests from 1 test suite.',
      '[ RUN      ] CalcTest.Adds',
      '[       OK ] CalcTest.Adds (0 ms)',
      '[ RUN      ] CalcTest.Divides',
      'calc_test.cc:12: Failure',
      'Expected equality of these values:',
      '[  FAILED  ] CalcTest.Divides (0 ms)',
      '[==========] 4 tests from 1 test suite ran. (1 ms total)',
      '[  PASSED  ] 2 tests.',
      '[  SKIPPED ] 1 test, listed below:',
      '[  SKIPPED ] CalcTest.Slow',
      '[  FAILED  ] 1 test, listed below:',
      '[  FAILED  ] CalcTest.Divides',
      '',
      ' 1 FAILED TEST',
    );
    expect(counts(out)).toEqual({
      runner: 'googletest',
      passed: 2,
      failed: 1,
      skipped: 1,
      failing: ['CalcTest.Divides'],
    });
    expect(
      readTestOutput('[==========] Running 4 tests from 1 test suite.\n[ RUN      ] CalcTest.Adds'),
    ).toBeNull();
  });
});

describe('Catch2 and doctest', () => {
  it("Catch2's green line, its totals with the failing test case's heading, doctest's totals", () => {
    expect(counts('All tests passed (12 assertions in 3 test cases)')).toEqual({
      runner: 'catch2',
      passed: 3,
      failed: 0,
      skipped: 0,
      failing: [],
    });
    const red = lines(
      '-------------------------------------------------------------------------------',
      'Divides',
      '  by zero',
      '-------------------------------------------------------------------------------',
      'calc_test.cpp:12',
      '...............................................................................',
      '',
      'calc_test.cpp:14: FAILED:',
      '  REQUIRE( divide(6, 0) == 0 )',
      '',
      '===============================================================================',
      'test cases: 3 | 2 passed | 1 failed',
      'assertions: 9 | 8 passed | 1 failed',
    );
    expect(counts(red)).toEqual({ runner: 'catch2', passed: 2, failed: 1, skipped: 0, failing: ['Divides'] });
    const doctest = lines(
      'TEST CASE:  parses a header',
      'parser_test.cpp:20: ERROR: CHECK( h.size() == 3 ) is NOT correct!',
      '[doctest] test cases: 5 | 4 passed | 1 failed | 0 skipped',
      '[doctest] assertions: 20 | 19 passed | 1 failed |',
      '[doctest] Status: FAILURE!',
    );
    expect(counts(doctest)).toEqual({
      runner: 'doctest',
      passed: 4,
      failed: 1,
      skipped: 0,
      failing: ['parses a header'],
    });
  });
});

describe("Automake's test driver and shell test scripts", () => {
  it('make check: the summary counts, the failing tests from their lines', () => {
    const out = [
      'PASS: tests/parse.sh',
      'FAIL: tests/render.sh',
      'SKIP: tests/net.sh',
      'ERROR: tests/crash.sh',
      '============================================================================',
      'Testsuite summary for demo 1.0',
      '============================================================================',
      '# TOTAL: 4',
      '# PASS:  1',
      '# SKIP:  1',
      '# XFAIL: 0',
      '# FAIL:  1',
      '# XPASS: 0',
      '# ERROR: 1',
      'make: *** [Makefile:1: check] Error 1',
    ].join('\n');
    expect(readTestOutput(out)).toMatchObject({
      runner: 'automake',
      passed: 1,
      failed: 2,
      skipped: 1,
      failing: ['tests/render.sh', 'tests/crash.sh'],
    });
  });

  it("a script's PASS: and FAIL: lines, counted when no summary is printed", () => {
    const out =
      '>>> E2E tasks/include\nPASS: untrusted file blocked\nFAIL: monorepo include blocked\ntasks/include: 5s\n';
    expect(readTestOutput(out)).toMatchObject({
      runner: 'automake',
      passed: 1,
      failed: 1,
      skipped: null,
      failing: ['monorepo include blocked'],
    });
    expect(readTestOutput('PASS: all good\n')).toMatchObject({ passed: 1, failed: 0 });
  });
});
