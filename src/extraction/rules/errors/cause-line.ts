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
 * message from its `_test.go` file (`store_test.go:41: got 2 rows, want 1`), node's TAP `error:` (its message below).
 */
const testFailureLine =
  /^(?:FAILED \S+ - \S|E {2,}\S|● (?!Console)\S|FAIL\s+\S+\s+>\s|[\w./-]+_test\.go:\d+: \S|error: (?:[|>][-+]?$|'\S))/;
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

/**
 * Lines that wrap a report without saying why: a background task's one-word fields (`<status>failed</status>`,
 * `<exit_code>1</exit_code>`: its output holds the cause), a tool's prefix with nothing after it (`npm error`, `npm ERR!`, `ERROR:`).
 */
const wrapper = /^(?:<(\w+)>[\w.-]{0,40}<\/\1>|<\/?\w+>|(?:npm (?:ERR!|error)|error|ERROR):?)$/;

/**
 * The line that explains a failure: a test runner's failure line, then an error-ish line, skipping "Exit code N",
 * chunk headers, banners, wrappers, warnings and a runner's closing verdict ("[lint] ERROR task failed" says only that
 * something failed), then a located finding. Output without an exit code (`fromEnd`) is read from its end, where a
 * failing program prints its error.
 */
export function causeOf(text: string, fromEnd = false): string {
  const lines = text.split('\n').map((l) => l.trim());
  const useful = lines.filter(
    (l) =>
      l !== '' &&
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
  // a line that introduces its message on the next ("thread 'main' panicked at src/x.rs:1:2:") says it with it
  const clean = (l: string): string => {
    const after = useful[useful.indexOf(l) + 1];
    if (tapBlock.test(l) && after) return clean(after);
    const next = l.endsWith(':') ? after : undefined;
    return (next ? `${l} ${next}` : l).replace(/<\/?tool_use_error>/g, '').slice(0, 300);
  };
  if (fromEnd) {
    const reversed = [...useful].reverse();
    const signal =
      reversed.find((l) => diagnosticStart.test(unlocated(l)) && !closingVerdict.test(unlocated(l))) ??
      reversed.find((l) => shellDiagnostic.test(l) || networkFailure.test(l) || closingVerdict.test(l));
    if (signal) return clean(signal);
  }
  const errorish = (l: string) => causeLine.test(l) && !/warn(ing)?\b/i.test(l);
  const cause =
    // a go test's t.Log lines look like its t.Error lines: the one that says what was wanted is the cause
    useful.find((l) => testFailureLine.test(l) && (!goTestLine.test(l) || wanted.test(l))) ??
    useful.find((l) => testFailureLine.test(l) && (assertion.test(l) || errorish(l))) ??
    useful.find((l) => testFailureLine.test(l)) ??
    // the shell saying the program is not there: nothing the command meant to do ran
    useful.find((l) => shellDiagnostic.test(l)) ??
    useful.find((l) => errorish(l) && !closingVerdict.test(l)) ??
    useful.find((l) => located.test(l) && !logLine.test(l)) ??
    useful.find(errorish);
  return clean(cause ?? useful[0] ?? '');
}
