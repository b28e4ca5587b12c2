import { readTestOutput, reportsFailure } from '../../session/test-output.js';
import { closingVerdict, networkFailure, shellDiagnostic } from './failure.js';

/** Lines that say what went wrong, in the words tools use. */
const causeLine =
  /error|fail|denied|not permitted|not found|no such file|does not exist|cannot|can't|unable|invalid|unknown|missing|requires?\b|incompatible|not supported|refused|rejected|timed? ?out|×|✗|panicked/i;

/** A diagnostic's first line, after any `path:line:col: ` location: "error[E0308]: ...", "fatal: ...", "TypeError: ...". */
const diagnosticStart = /^(?:error(?:\[\w+\]| [A-Z]+\d+)?:|fatal:|\w*(?:Error|Exception):\s)/;
/** Where a finding is: `src/main.go:19:13: `, tsc's `src/a.ts(3,5): ` and its pretty `src/a.ts:3:5 - `. */
const location = /^[\w./@~-]+\.\w+(?::\d+(?::\d+)?: |\(\d+,\d+\): |:\d+:\d+ - )/;
/** A compiler's or linter's located finding: `src/main.go:19:13: G304: ...`, `src/a.ts(3,5): error TS2322: ...`. */
const located = new RegExp(`${location.source}\\S`);
export const unlocated = (l: string) => l.replace(location, '');

/**
 * A test runner's line naming a failure and why: pytest's `FAILED tests/a.py::test_x - ZeroDivisionError ...` and
 * its `E   assert 5 == 4` lines, jest's `● suite › test`, vitest's `FAIL  src/a.test.ts > suite > test`, a go test's own
 * message from its `_test.go` file (`store_test.go:41: got 2 rows, want 1`), node's TAP `error:` (its message below),
 * a Rust test's panic, named by its thread (`thread 't_div' panicked at tests/ops.rs:5:45:`, its message below),
 * ExUnit's exception (`** (RuntimeError) ...`) and failed assertion (`Assertion with == failed`) under a test's name.
 */
const testFailureLine =
  /^(?:FAILED \S+ - \S|E {2,}\S|● (?!Console)\S|FAIL\s+\S+\s+>\s|[\w./-]+_test\.go:\d+: \S|error: (?:[|>][-+]?$|'\S)|thread '[^']+'(?: \(\d+\))? panicked at |\*\* \([\w.]+\) \S|Assertion with \S+ failed)/;
/**
 * A runner's count line: `test result: ok. 2 passed; 0 failed; ...`, `Passed!  - Failed: 0, Passed: 4, ...`,
 * `Executed 1 test, with 0 failures`, `[INFO] Tests run: 2, Failures: 0, Errors: 0`, `4 tests, 0 failures`,
 * `Tests: succeeded 1, failed 0, ...`, `[ FAIL 0 | WARN 0 | SKIP 0 | PASS 3 ]`: a count of failures beside another
 * count. It says how many failed, never which or why, and a run of several binaries, projects, suites or apps (cargo,
 * `dotnet test`, XCTest, a Maven reactor, an umbrella's `mix test`) prints one per part, the passing ones too.
 */
const failureCount =
  /\b(\d+) (?:tests? )?(?:failed|failures?|fail|failing|errors?)\b|\b(?:failed|failures?|fail|errors?):?[ \t]+(\d+)\b/gi;
const anyCount = /\b\d+ [a-z]+|\b[a-z]+:?[ \t]+\d+\b/gi;
function counts(line: string): { failures: number[]; all: number } | null {
  const failures = [...line.matchAll(failureCount)].map((m) => Number(m[1] ?? m[2]));
  if (failures.length === 0) return null;
  return { failures, all: [...line.matchAll(anyCount)].length };
}
const countLine = (l: string) => (counts(l)?.all ?? 0) >= 2;
/** A count line with no failure in it: the part of the run that passed, never the cause. */
const passingCount = (l: string) => countLine(l) && (counts(l)?.failures ?? []).every((n) => n === 0);
/** A runner's line naming a failing test without saying why: vitest's `FAIL  a.test.ts > suite > test`, jest's `● ...`. */
const namedTest = /^(?:FAIL\s+\S+\s+>\s|● (?!Console)\S)/;
/** Node's TAP report gives a failure's message in a block after `error: |-` (its `failureType:` only names a kind). */
const tapBlock = /^error: [|>][-+]?$/;
/**
 * A go test's own line (`t.Log` and `t.Error` alike), and the words of an assertion that failed: those that say what
 * was wanted first, then the weaker ones ("got", which a log line says too).
 */
const goTestLine = /^[\w./-]+_test\.go:\d+: /;
const wanted = /\b(?:expected|expecting|want(?:ed)?|should(?:n't| not)?|mismatch|not equal)\b/i;
const assertion = /\b(?:got|unexpected|differs?)\b/i;
/** A log line a program printed on its way (`2026/01/20 09:50:31 INFO ...`, `level=info`): never the cause. */
const logLine = /\b(?:INFO|DEBUG|TRACE)\b|\blevel=(?:info|debug|trace)\b/;
/**
 * Banners that frame a report without saying what failed: pytest's `=== FAILURES ===` and `___ test_x ___`, go's
 * `--- FAIL: TestAdd (0.00s)`, `FAIL\texample.com/app\t0.01s` and bare `FAIL`, jest's `FAIL src/a.test.js`.
 */
const banner =
  /^(?:[=_*#-]{3,}.*[=_*#-]{3,}|--- FAIL: \S+ \([\d.]+s\)|FAIL(?:\s+\S+(?:\s+[\d.]+s|\s+\[[^\]]+\])?)?|(?:FAIL|PASS)\s+\S+\.\w+)$/;

/** npm's and pnpm's line naming the package and script they run: `> calc@1.0.0 test`, `> @a/b@2.1.0 lint:fix`. */
const scriptBanner = /^> (?:@[\w.-]+\/)?[\w.-]+@\d[\w.+-]* [\w:.-]+(?: \S+)?$/;

/**
 * Lines that wrap a report without saying why: a background task's one-word fields (`<status>failed</status>`,
 * `<exit_code>1</exit_code>`: its output holds the cause), a tool's prefix with nothing after it (`npm error`, `npm ERR!`, `ERROR:`).
 */
const wrapper = /^(?:<(\w+)>[\w.-]{0,40}<\/\1>|<\/?\w+>|(?:npm (?:ERR!|error)|error|ERROR):?)$/;

/** An error-ish line: the words of a failure, not a warning, not the count of a run that passed. */
const errorish = (l: string) => causeLine.test(l) && !/warn(ing)?\b/i.test(l) && !passingCount(l);

/**
 * The line that explains a failure: a test runner's failure line, the shell's diagnostic, a program's own diagnostic
 * (`path:3:5: error: ...`, `ValueError: ...`), then an error-ish line, skipping "Exit code N",
 * chunk headers, banners, wrappers, warnings, a runner's closing verdict ("[lint] ERROR task failed" says only that
 * something failed) and its count lines (a passing one never, a failing one only when nothing says more), then a
 * located finding. Output without an exit code (`fromEnd`) is read from its end, where a failing program prints its
 * error, unless it is a failing test report.
 */
export function causeOf(text: string, fromEnd = false): string {
  const lines = text.split('\n').map((l) => l.trim());
  // a package manager's echo of the script it runs (npm's `> calc@1.0.0 test` and the `> node test.js` under it)
  const echoed = new Set<number>();
  lines.forEach((l, i) => {
    if (scriptBanner.test(l)) echoed.add(i).add(lines[i + 1]?.startsWith('> ') ? i + 1 : i);
  });
  const useful = lines.filter(
    (l, i) =>
      l !== '' &&
      !echoed.has(i) &&
      !/^(Error: )?Exit code \d+$/.test(l) &&
      !/^\(?(node:\d+\)|Use `node)/.test(l) &&
      !/^(Chunk ID|Wall time|Process exited|Original token count|Output|Exit code:|Script error:?$)/.test(
        l,
      ) &&
      !/^\[\w[\w:-]*\] \$ /.test(l) &&
      !/^failureType: '/.test(l) &&
      !wrapper.test(l) &&
      !banner.test(l),
  );
  // a line that introduces its message on the next ("thread 'main' panicked at src/x.rs:1:2:") says it with it, and
  // an assertion's values below it (Rust's `left: 3` / `right: 2`) say how it failed
  const clean = (l: string): string => {
    const at = useful.indexOf(l);
    const after = useful[at + 1];
    if (tapBlock.test(l) && after) return clean(after);
    const next = l.endsWith(':') ? after : undefined;
    // a failing test named alone (vitest's `FAIL  a.test.ts > suite > test`) is said with the exception under it
    const thrown = !next && namedTest.test(l) && diagnosticStart.test(after ?? '') ? after : undefined;
    const said = next ? `${l} ${next}` : thrown ? `${l}: ${thrown}` : l;
    const rest = useful.slice(at + (next || thrown ? 2 : 1), at + (next || thrown ? 4 : 3));
    const values =
      /^left: /.test(rest[0] ?? '') && /^right: /.test(rest[1] ?? '') ? ` (${rest.join(', ')})` : '';
    return `${said}${values}`.replace(/<\/?tool_use_error>/g, '').slice(0, 300);
  };
  // a test run's report names its failures wherever they stand: read it as one, not from its last lines
  const report = fromEnd ? readTestOutput(text) : null;
  if (fromEnd && !(report && reportsFailure(report))) {
    const reversed = [...useful].reverse();
    const signal =
      reversed.find((l) => diagnosticStart.test(unlocated(l)) && !closingVerdict.test(unlocated(l))) ??
      reversed.find((l) => shellDiagnostic.test(l) || networkFailure.test(l) || closingVerdict.test(l));
    if (signal) return clean(signal);
  }
  // every test passed and the coverage threshold failed the run: its line says why
  const run = report ?? readTestOutput(text);
  if (run?.coverage_unmet && (run.failed ?? 0) === 0 && run.failing.length === 0)
    return clean(run.coverage_unmet);
  const cause =
    // a go test's t.Log lines look like its t.Error lines: the one that says what was wanted is the cause
    useful.find((l) => testFailureLine.test(l) && (!goTestLine.test(l) || wanted.test(l))) ??
    useful.find((l) => testFailureLine.test(l) && (assertion.test(l) || errorish(l))) ??
    useful.find((l) => testFailureLine.test(l)) ??
    // the shell saying the program is not there: nothing the command meant to do ran
    useful.find((l) => shellDiagnostic.test(l)) ??
    // a program's own diagnostic ("src/a.rs:3:5: error: ...", "ValueError: ..."), before a line that only holds an
    // error-ish word: a file printed before it (`sed ... && cargo check`), the code a traceback quotes
    useful.find((l) => diagnosticStart.test(unlocated(l)) && !closingVerdict.test(unlocated(l))) ??
    useful.find((l) => errorish(l) && !closingVerdict.test(l) && !countLine(l)) ??
    useful.find((l) => located.test(l) && !logLine.test(l)) ??
    useful.find(errorish) ??
    // a TAP line naming a test that failed (`not ok 2 multiply`), where no line says why
    useful.find((l) => /^not ok\b/.test(l));
  return clean(cause ?? useful.find((l) => !passingCount(l)) ?? '');
}

/**
 * Whether a cause `causeOf` chose says why anything failed (a test's failure, an error-ish or located finding, the
 * shell's diagnostic), rather than being the first line it fell back on ("Current runner version: '2.336.0'").
 */
export function explainsFailure(cause: string): boolean {
  return testFailureLine.test(cause) || shellDiagnostic.test(cause) || located.test(cause) || errorish(cause);
}
