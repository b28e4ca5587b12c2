import { withoutTerminalCodes } from '../../agents/terminal-codes.js';
import { coverageUnmet } from '../../core/coverage-threshold.js';
import { swift } from './apple-runners.js';
import { ava, jasmine, karma, mocha, playwright } from './js-runners.js';
import { alcotest, busted, clojureTest, julia, prove, sbt, tasty, testthat } from './language-runners.js';
import { automake, bazel, catch2, ctest, googleTest, meson } from './cpp-runners.js';
import { dart, gotestsum, nextest, zig } from './native-runners.js';
import { combineReports, runSections } from './run-sections.js';
import { countIn, unique } from './summary-parts.js';
import {
  deno,
  dotnet,
  exUnit,
  gradle,
  maven,
  minitest,
  pest,
  phpunit,
  rspec,
  unittest,
} from './test-summaries.js';

/** What a test runner's output reports: counts, the failing tests, coverage. null fields: not printed. */
export interface TestReport {
  runner: string;
  passed: number | null;
  failed: number | null;
  skipped: number | null;
  failing: string[];
  coverage: number | null;
  /** The line saying the run's coverage threshold was not met: the run fails though every test passed. */
  coverage_unmet?: string | null;
  /**
   * The packages whose tests passed, when the runner counts packages, not tests (`go test` without -v: `ok  pkg`);
   * its failures are then the packages that failed.
   */
  packages_ok?: number;
}

/** Whether a report says the run failed: a count of failures, failing tests named, or a coverage threshold unmet. */
export const reportsFailure = (r: TestReport): boolean =>
  (r.failed ?? 0) > 0 || r.failing.length > 0 || !!r.coverage_unmet;

const num = (s: string | undefined) => (s === undefined ? null : Number(s));
const sumAll = (text: string, re: RegExp) => {
  let total: number | null = null;
  for (const m of text.matchAll(re)) total = (total ?? 0) + Number(m[1]);
  return total;
};

/**
 * vitest: ` Tests  1 failed | 9 passed (10)`. A test file that failed to load (` Test Files  1 failed | 3 passed (4)`
 * beside passing tests, or `Tests  no tests`) and unhandled errors (` Errors  1 error`) fail the run too.
 */
function vitest(t: string): TestReport | null {
  const line = /^[ \t]*Tests\s+(.+?)\s*\((\d+)\)[ \t]*$/m.exec(t);
  const files = /^[ \t]*Test Files\s+(.+?)\s*\((\d+)\)[ \t]*$/m.exec(t);
  if (!line?.[1] && !(files && /^[ \t]*Tests\s+no tests[ \t]*$/m.test(t))) return null;
  const testsFailed = countIn(line?.[1], 'failed') ?? 0;
  const errors = num(/^[ \t]*Errors\s+(\d+) errors?\b/m.exec(t)?.[1]) ?? 0;
  const named = [...t.matchAll(/^[ \t]*FAIL\s+(\S+\s+>\s+.+?)[ \t]*$/gm)].map((m) => m[1] ?? '');
  const crossed = [...t.matchAll(/^[ \t]*[×✗]\s+(.+?)(?:\s+\d+ms)?[ \t]*$/gm)].map((m) => m[1] ?? '');
  const fileNames = [...t.matchAll(/^[ \t]*FAIL\s+(\S+)\s+\[ .+ \][ \t]*$/gm)].map((m) => m[1] ?? '');
  return {
    runner: 'vitest',
    passed: countIn(line?.[1], 'passed') ?? 0,
    failed: testsFailed > 0 ? testsFailed : (countIn(files?.[1], 'failed') ?? 0) + errors,
    skipped: countIn(line?.[1], 'skipped'),
    failing: unique(named.length ? named : crossed.length ? crossed : fileNames),
    coverage: null,
  };
}

/** jest: `Tests:  1 failed, 4 passed, 5 total`; a suite that failed to run (`Test Suites: 1 failed`) fails it too. */
function jest(t: string): TestReport | null {
  const line = /^Tests:\s+(.*\S)[ \t]*$/m.exec(t);
  if (!line?.[1] || !/\btotal\b/.test(line[1])) return null;
  const testsFailed = countIn(line[1], 'failed') ?? 0;
  const suites = /^Test Suites:\s+(.*\S)[ \t]*$/m.exec(t)?.[1];
  return {
    runner: 'jest',
    passed: countIn(line[1], 'passed') ?? 0,
    failed: testsFailed > 0 ? testsFailed : (countIn(suites, 'failed') ?? 0),
    skipped: countIn(line[1], 'skipped'),
    failing: unique(
      [...t.matchAll(/^[ \t]*●\s+(.*\S)[ \t]*$/gm)].map((m) => m[1] ?? '').filter((s) => !/^Console/.test(s)),
    ),
    coverage: null,
  };
}

function nodeTest(t: string): TestReport | null {
  const pass = /^[#ℹ]\s*pass\s+(\d+)[ \t]*$/m.exec(t);
  const fail = /^[#ℹ]\s*fail\s+(\d+)[ \t]*$/m.exec(t);
  if (!pass || !fail) return null;
  // the spec reporter lists the failures again under `✖ failing tests:`; TAP says `not ok 2 - name`
  const list = t.search(/^✖ failing tests:[ \t]*$/m);
  const spec = [...(list >= 0 ? t.slice(list) : t).matchAll(/^[ \t]*✖ (.+?) \([\d.]+m?s\)[ \t]*$/gm)];
  const cancelled = num(/^[#ℹ]\s*cancelled\s+(\d+)[ \t]*$/m.exec(t)?.[1]) ?? 0;
  return {
    runner: 'node',
    passed: num(pass[1]),
    failed: (num(fail[1]) ?? 0) + cancelled,
    skipped: num(/^[#ℹ]\s*skipped\s+(\d+)[ \t]*$/m.exec(t)?.[1]),
    failing: unique([
      ...[...t.matchAll(/^[ \t]*not ok \d+ - (.*\S)[ \t]*$/gm)].map((m) => m[1] ?? ''),
      ...spec.map((m) => m[1] ?? ''),
    ]),
    coverage: null,
  };
}

function pytest(t: string): TestReport | null {
  // every count pytest and its plugins print (`1 rerun`, `2 subtests passed`), one of them a result
  const line = [...t.matchAll(/^=*[ \t]*((?:\d+ [a-z]+(?: [a-z]+)?(?:, )?)+) in [\d.]+s/gm)]
    .filter((m) => /\b(?:passed|failed|errors?|skipped|xfailed|xpassed)\b/.test(m[1] ?? ''))
    .at(-1);
  if (!line?.[1]) return null;
  const part = (name: string) => countIn(line[1], name);
  const errors = part('errors?') ?? 0;
  return {
    runner: 'pytest',
    passed: part('passed') ?? 0,
    failed: (part('failed') ?? 0) + errors,
    skipped: part('skipped'),
    failing: unique([...t.matchAll(/^(?:FAILED|ERROR) (\S+)/gm)].map((m) => m[1] ?? '')),
    coverage: num(/^TOTAL\s+.*?(\d+(?:\.\d+)?)%[ \t]*$/m.exec(t)?.[1]),
  };
}

function cargo(t: string): TestReport | null {
  if (!/^test result: /m.test(t)) return null;
  return {
    runner: 'cargo',
    passed: sumAll(t, /^test result: \w+\. (\d+) passed/gm),
    failed: sumAll(t, /^test result: \w+\. \d+ passed; (\d+) failed/gm),
    skipped: sumAll(t, /^test result: \w+\. \d+ passed; \d+ failed; (\d+) ignored/gm),
    failing: unique([...t.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((m) => m[1] ?? '')),
    coverage: null,
  };
}

/** A package's line: `ok  \tpkg\t0.12s`, `ok  \tpkg\t(cached)`, `FAIL\tpkg\t0.3s`, `FAIL\tpkg [build failed]`. */
const goPackage = (verdict: string) =>
  new RegExp(
    `^${verdict}\\s+[\\w.~/@+-]+\\s+(?:\\d+(?:\\.\\d+)?s|\\(cached\\)|\\[(?:build|setup) failed\\])`,
    'gm',
  );

function goTest(t: string): TestReport | null {
  const okPkg = [...t.matchAll(goPackage('ok'))].length;
  const failPkg = [...t.matchAll(goPackage('FAIL'))].length;
  const passes = [...t.matchAll(/^[ \t]*--- PASS: /gm)].length;
  const fails = unique([...t.matchAll(/^[ \t]*--- FAIL: (\S+)/gm)].map((m) => m[1] ?? ''));
  if (okPkg + failPkg + passes + fails.length === 0) return null;
  // a package whose tests did not compile never ran them: it is named as such, not counted as an unnamed failure
  const unbuilt = unique(
    [...t.matchAll(/^FAIL\s+([\w.~/@+-]+)\s+\[(build|setup) failed\]/gm)].map(
      (m) => `${m[1]} [${m[2]} failed]`,
    ),
  );
  return {
    runner: 'go',
    // without -v go prints packages, not tests: the count of passed tests is unknown then
    passed: passes > 0 ? passes : null,
    failed: fails.length > 0 ? fails.length + unbuilt.length : failPkg,
    skipped: null,
    failing: [...fails, ...unbuilt],
    coverage: num(/coverage: (\d+(?:\.\d+)?)% of statements/.exec(t)?.[1]),
    ...(passes === 0 && fails.length === 0 ? { packages_ok: okPkg } : {}),
  };
}

function bun(t: string): TestReport | null {
  const pass = /^[ \t]*(\d+) pass[ \t]*$/m.exec(t);
  const fail = /^[ \t]*(\d+) fail[ \t]*$/m.exec(t);
  if (!pass || !fail) return null;
  return {
    runner: 'bun',
    passed: num(pass[1]),
    failed: num(fail[1]),
    skipped: num(/^[ \t]*(\d+) skip[ \t]*$/m.exec(t)?.[1]),
    // `(fail) name [0.2ms]` without a terminal, `✗ name [0.2ms]` in one
    failing: unique(
      [...t.matchAll(/^[ \t]*(?:\(fail\)|✗) (.+?)(?: \[[\d.]+m?s\])?$/gm)].map((m) => m[1] ?? ''),
    ),
    coverage: null,
  };
}

/** TAP as Bats prints it: `ok 1 name`, `not ok 2 name`. */
function tap(t: string): TestReport | null {
  const ok = [...t.matchAll(/^(?:\[[^\]]+\]\s*)?ok \d+ /gm)].length;
  const notOk = [...t.matchAll(/^(?:\[[^\]]+\]\s*)?not ok \d+ (.*\S)[ \t]*$/gm)].map((m) => m[1] ?? '');
  if (ok + notOk.length === 0) return null;
  return {
    runner: 'tap',
    passed: ok,
    failed: notOk.length,
    skipped: null,
    failing: unique(notOk),
    coverage: null,
  };
}

const coverageOf = (t: string) =>
  num(/^All files\s*\|\s*([\d.]+)/m.exec(t)?.[1]) ?? num(/^Lines\s*:\s*([\d.]+)%/m.exec(t)?.[1]);

const readers = [
  vitest,
  jest,
  pytest,
  nextest,
  cargo,
  nodeTest,
  bun,
  deno,
  playwright,
  mocha,
  jasmine,
  karma,
  ava,
  swift,
  ctest,
  meson,
  bazel,
  googleTest,
  catch2,
  dart,
  zig,
  gotestsum,
  goTest,
  exUnit,
  rspec,
  minitest,
  dotnet,
  maven,
  gradle,
  phpunit,
  pest,
  unittest,
  sbt,
  clojureTest,
  tasty,
  alcotest,
  julia,
  testthat,
  prove,
  busted,
  tap,
  automake,
];

/** One run's output: the first runner whose summary it holds. */
function readRun(t: string): TestReport | null {
  for (const read of readers) {
    const r = read(t);
    if (r) return { ...r, coverage: r.coverage ?? coverageOf(t) };
  }
  return null;
}

/**
 * Reads a test run's output. Tries each runner's summary format in turn, the more particular ones first (nextest
 * before cargo, whose `test result:` line nextest's captured output repeats); null when the output reports no result
 * (cut off, or a build that failed before the tests). Carriage returns (progress lines redrawn) end lines. An output
 * holding several runs (turbo, nx, `pnpm -r`, chained scripts: see run-sections.ts) reads as their sum.
 */
export function readTestOutput(output: string): TestReport | null {
  const t = withoutTerminalCodes(output).replace(/\r\n?/g, '\n');
  const sections = runSections(t);
  const reports = sections.map(readRun).filter((r): r is TestReport => r !== null);
  const report = reports.length > 1 ? combineReports(reports) : (reports[0] ?? readRun(t));
  return report && { ...report, coverage_unmet: coverageUnmet.exec(t)?.[1] ?? null };
}
