import type { TestReport } from './test-output.js';
import { countIn, lastMatch, n, report } from './summary-parts.js';

/**
 * Summary lines of the runners beyond the JavaScript, Python, Rust and Go ones: ExUnit (`mix test`), RSpec,
 * `dotnet test`, Gradle, Maven Surefire, `deno test`, PHPUnit, Pest, Minitest, unittest. Each returns null when its summary is
 * not in the output.
 */

/** `14 doctests, 65 tests, 1 failure, 2 excluded` (doctests and properties count as tests). */
export function exUnit(t: string): TestReport | null {
  const line = lastMatch(
    t,
    /^[ \t]*((?:\d+ (?:doctests?|propert(?:y|ies)|tests?), )*\d+ (?:doctests?|propert(?:y|ies)|tests?)), (\d+) failures?((?:, \d+ (?:excluded|skipped|invalid))*)/gm,
  );
  if (!line) return null;
  const total = [...(line[1] ?? '').matchAll(/(\d+) /g)].reduce((s, m) => s + n(m[1]), 0);
  const failed = n(line[2]);
  const skipped = [...(line[3] ?? '').matchAll(/(\d+) (excluded|skipped|invalid)/g)].reduce(
    (s, m) => s + n(m[1]),
    0,
  );
  const failing = [...t.matchAll(/^[ \t]+\d+\) (test .+? \([\w.]+\))[ \t]*$/gm)].map((m) => m[1] ?? '');
  return report('exunit', total - failed - skipped, failed, skipped, failing);
}

/** `10 examples, 2 failures, 1 pending`, failing examples listed as `rspec ./spec/x_spec.rb:12 # description`. */
export function rspec(t: string): TestReport | null {
  const line = lastMatch(
    t,
    /^[ \t]*(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?/gm,
  );
  if (!line) return null;
  // a spec file that failed to load: `0 examples, 0 failures, 1 error occurred outside of examples`
  const failed = n(line[2]) + n(line[4]);
  const pending = n(line[3]);
  const failing = [...t.matchAll(/^rspec (\S+) # (.*\S)[ \t]*$/gm)].map((m) => m[2] ?? m[1] ?? '');
  return report('rspec', n(line[1]) - n(line[2]) - pending, failed, pending, failing);
}

/**
 * `Passed!  - Failed: 0, Passed: 12, Skipped: 0, Total: 12` per assembly (or `Total tests: / Passed: / Failed:`),
 * .NET 9's `Test summary: total:` line or the testing platform's `Test run summary:` block; failing tests as
 * `  Failed Calc.Tests.Divides [12 ms]` or `failed Calc.Tests.Divides (12ms)`.
 */
export function dotnet(t: string): TestReport | null {
  const lines = [
    ...t.matchAll(/^[ \t]*(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:\s+(\d+)/gm),
  ];
  const failing = [...t.matchAll(/^[ \t]*[Ff]ailed (\S+) [[(]\d/gm)].map((m) => m[1] ?? '');
  const summary = lastMatch(t, /Test (?:run )?summary: (?:total: \d+|(?:Passed|Failed)!)[\s\S]{0,300}/g)?.[0];
  if (summary && /total: \d+/.test(summary)) {
    // .NET 9's terminal logger (`Test summary: total: 12, failed: 1, succeeded: 11, skipped: 0`) and the testing
    // platform's `Test run summary: Failed!` block (`  total: 5` / `  failed: 1` / `  succeeded: 3` / `  skipped: 1`)
    const part = (name: string) => n(new RegExp(`\\b${name}: (\\d+)`).exec(summary)?.[1]);
    return report('dotnet', part('succeeded'), part('failed') + part('error'), part('skipped'), failing);
  }
  if (lines.length > 0) {
    const sum = (i: number) => lines.reduce((s, m) => s + n(m[i]), 0);
    return report('dotnet', sum(2), sum(1), sum(3), failing);
  }
  const total = /^[ \t]*Total tests:\s+(\d+)/m.exec(t);
  if (!total) return null;
  const passed = /^[ \t]*Passed:\s+(\d+)/m.exec(t);
  const failed = /^[ \t]*Failed:\s+(\d+)/m.exec(t);
  const skipped = /^[ \t]*Skipped:\s+(\d+)/m.exec(t);
  return report('dotnet', n(passed?.[1]), n(failed?.[1]), skipped ? n(skipped[1]) : null, failing);
}

/** `12 tests completed, 2 failed, 1 skipped` and `FooTest > bar() FAILED`; a BUILD SUCCESSFUL run alone passed. */
export function gradle(t: string): TestReport | null {
  const failing = [...t.matchAll(/^(\S.*? > .+?) FAILED[ \t]*$/gm)].map((m) => m[1] ?? '');
  const line = lastMatch(t, /^[ \t]*(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?/gm);
  if (line) {
    const failed = n(line[2]);
    const skipped = n(line[3]);
    return report('gradle', n(line[1]) - failed - skipped, failed, skipped, failing);
  }
  if (/^BUILD SUCCESSFUL\b/m.test(t)) return report('gradle', null, 0, null, []);
  if (/^BUILD FAILED\b/m.test(t) && failing.length > 0)
    return report('gradle', null, failing.length, null, failing);
  return null;
}

/** Surefire's `Tests run: 12, Failures: 1, Errors: 0, Skipped: 0` (the last one is the total). */
export function maven(t: string): TestReport | null {
  const line = lastMatch(t, /Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)[ \t]*$/gm);
  if (!line) return null;
  const failed = n(line[2]) + n(line[3]);
  const skipped = n(line[4]);
  const failing = [...t.matchAll(/^\[ERROR\]\s+(\w[\w$]*\.\w+)(?::\d+)?\s/gm)].map((m) => m[1] ?? '');
  return report('maven', n(line[1]) - failed - skipped, failed, skipped, failing);
}

/** `ok | 5 passed | 0 failed (20ms)` or `FAILED | 3 passed | 2 failed | 1 ignored (45ms)`. */
export function deno(t: string): TestReport | null {
  const line = lastMatch(
    t,
    /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored)?/gm,
  );
  if (!line) return null;
  const failing = [...t.matchAll(/^(.+?) => \S+:\d+:\d+[ \t]*$/gm)].map((m) => m[1] ?? '');
  return report('deno', n(line[1]), n(line[2]), line[3] === undefined ? null : n(line[3]), failing);
}

/** `OK (5 tests, 10 assertions)` or `Tests: 5, Assertions: 8, Failures: 1, Errors: 1, Skipped: 1.` */
export function phpunit(t: string): TestReport | null {
  const ok = /^OK \((\d+) tests?, \d+ assertions?\)/m.exec(t);
  if (ok) return report('phpunit', n(ok[1]), 0, null, []);
  const line = /^Tests: (\d+), Assertions: \d+(.*)$/m.exec(t);
  if (!line) return null;
  const part = (name: string) => n(new RegExp(`${name}: (\\d+)`).exec(line[2] ?? '')?.[1]);
  const failed = part('Failures') + part('Errors');
  const skipped = part('Skipped') + part('Incomplete');
  const failing = [...t.matchAll(/^\d+\) ([\w\\]+::\w+)/gm)].map((m) => m[1] ?? '');
  return report('phpunit', n(line[1]) - failed - skipped, failed, skipped, failing);
}

/**
 * Python's unittest: `Ran 12 tests in 0.004s` then `OK`, `OK (skipped=1)` or `FAILED (failures=1, errors=2)`;
 * failing tests as `FAIL: test_add (test_calc.TestCalc...)` / `ERROR: ...` headers.
 */
export function unittest(t: string): TestReport | null {
  const ran = lastMatch(t, /^Ran (\d+) tests? in [\d.]+s\s*\n\s*\n?(OK|FAILED)\b(?: \(([^)]*)\))?/gm);
  if (!ran) return null;
  const detail = ran[3] ?? '';
  const count = (name: string) => n(new RegExp(`\\b${name}=(\\d+)`).exec(detail)?.[1]);
  const failed = count('failures') + count('errors');
  const skipped = count('skipped');
  const failing = [...t.matchAll(/^(?:FAIL|ERROR): (\S+ \([\w.]+\))/gm)].map((m) => m[1] ?? '');
  return report('unittest', n(ran[1]) - failed - skipped, failed, skipped, failing);
}

/**
 * Minitest (`rails test`, `rake test`): `10 runs, 20 assertions, 1 failures, 0 errors, 2 skips` (test-unit prints
 * `tests` and `pendings`); failing tests under a `Failure:` or `Error:` header as `UserTest#test_valid [file:5]:`.
 */
export function minitest(t: string): TestReport | null {
  const line = lastMatch(
    t,
    /^(\d+) (?:runs|tests), \d+ assertions, (\d+) failures, (\d+) errors(?:, (\d+) (?:skips|pendings))?/gm,
  );
  if (!line) return null;
  const failed = n(line[2]) + n(line[3]);
  const skipped = n(line[4]);
  const failing = [
    ...t.matchAll(
      /^[ \t]*(?:\d+\) )?(?:Failure|Error):\s*\n\s*([\w:]+#[^\n[]+?)(?: \[[^\]\n]*\])?:[ \t]*$/gm,
    ),
  ].map((m) => m[1] ?? '');
  return report('minitest', n(line[1]) - failed - skipped, failed, skipped, failing);
}

/** "Tests\\Unit\\X > it works  0.02s" without its last word when two blanks set it apart. */
function withoutDuration(title: string): string {
  const gap = title.lastIndexOf('  ');
  return gap > 0 && !/\s/.test(title.slice(gap + 2)) ? title.slice(0, gap).trimEnd() : title;
}

/**
 * Pest and Laravel's `php artisan test` (Collision): `  Tests:    2 failed, 1 skipped, 10 passed (25 assertions)`;
 * failing tests as `  FAILED  Tests\Feature\LoginTest > it signs in`.
 */
export function pest(t: string): TestReport | null {
  const line = lastMatch(t, /^[ \t]*Tests:\s+((?:\d+ [a-z]+(?:, )?)+)\s*\(\d+ assertions?\)/gm);
  if (!line) return null;
  const part = (name: string) => countIn(line[1], name) ?? 0;
  // the title runs to a duration after two blanks, or to the end of the line
  const failing = [...t.matchAll(/^[ \t]*FAILED[ \t]+(\S.*)$/gm)]
    .map((m) => withoutDuration((m[1] ?? '').trimEnd()))
    .filter((title) => title.includes(' > '));
  return report(
    'pest',
    part('passed'),
    part('failed'),
    part('skipped') + part('incomplete') + part('todos?'),
    failing,
  );
}
