import type { TestReport } from './test-output.js';
import { lastMatch, n, report } from './summary-parts.js';

/** JavaScript runners beyond vitest, jest, node's and bun's: Playwright Test, mocha, Jasmine, Karma and AVA. */

const duration = String.raw`\d+(?:\.\d+)?(?:ms|s|m|h)`;
const playwrightCount = new RegExp(
  String.raw`^ {2}(\d+) (failed|flaky|interrupted|skipped|did not run|passed)(?: \((${duration})\))?[ \t]*$`,
);
const running = /^[ \t]*Running \d+ tests? using \d+ workers?/;
/** A title line of the failed list, indented four spaces, its trailing rule of ─ and blanks left out. */
const playwrightTitle = (line: string): string | null => {
  if (!/^ {4}\S/.test(line)) return null;
  let end = line.length;
  while (end > 4 && /[\s─]/.test(line.charAt(end - 1))) end -= 1;
  return line.slice(4, end);
};

/**
 * Playwright Test's closing summary (list, line and dot reporters): `  2 failed` with the failing tests' titles
 * under it (`    [chromium] › login.spec.ts:12:5 › signs in`), then `  1 flaky`, `  3 skipped`, `  12 passed (4.2s)`.
 * Flaky tests passed on a retry; interrupted ones count as failed, those that did not run as skipped. Read only when
 * it is Playwright's: the `Running N tests using M workers` header, the timed `passed` line or titles with `›`.
 */
export function playwright(t: string): TestReport | null {
  const counts = new Map<string, number>();
  const failing: string[] = [];
  let under: string | null = null;
  let timed = false;
  for (const line of t.split('\n')) {
    if (running.test(line)) {
      // a later run in the same output: its summary is the one that counts
      counts.clear();
      failing.length = 0;
      continue;
    }
    const count = playwrightCount.exec(line);
    if (count) {
      counts.set(count[2] ?? '', n(count[1]));
      under = count[2] ?? null;
      timed ||= count[3] !== undefined;
      continue;
    }
    const title = playwrightTitle(line);
    if (title !== null && (under === 'failed' || under === 'interrupted')) failing.push(title);
    else if (title === null) under = null;
  }
  const header = new RegExp(running.source, 'm').test(t);
  if (counts.size === 0 || !(header || timed || failing.some((f) => f.includes(' › ')))) return null;
  const get = (k: string) => counts.get(k) ?? 0;
  return report(
    'playwright',
    get('passed') + get('flaky'),
    get('failed') + get('interrupted'),
    get('skipped') + get('did not run'),
    failing,
  );
}

/** The titles of mocha's numbered failures after its summary: `  1) Suite` / `       nested` / `         test:`. */
function mochaFailures(lines: string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const head = /^[ \t]*\d+\) (.+)$/.exec(lines[i] ?? '');
    if (!head) continue;
    const parts = [(head[1] ?? '').trim()];
    while (!parts.at(-1)?.endsWith(':') && parts.length < 8 && (lines[i + 1] ?? '').trim() !== '') {
      i += 1;
      parts.push((lines[i] ?? '').trim());
    }
    if (parts.at(-1)?.endsWith(':')) names.push(parts.join(' ').replace(/:$/, ''));
  }
  return names;
}

/**
 * mocha (spec reporter and the others sharing its epilogue): `  5 passing (20ms)`, `  1 pending`, `  2 failing`,
 * then the failures numbered with their titles.
 */
export function mocha(t: string): TestReport | null {
  const passing = lastMatch(t, new RegExp(String.raw`^[ \t]*(\d+) passing \(${duration}\)[ \t]*$`, 'gm'));
  if (!passing) return null;
  const rest = t.slice((passing.index ?? 0) + passing[0].length);
  const failing = /^[ \t]*(\d+) failing[ \t]*$/m.exec(rest);
  const pending = /^[ \t]*(\d+) pending[ \t]*$/m.exec(rest);
  const names = failing
    ? mochaFailures(rest.slice((failing.index ?? 0) + failing[0].length).split('\n'))
    : [];
  return report('mocha', n(passing[1]), n(failing?.[1]), n(pending?.[1]), names);
}

/**
 * Jasmine: `4 specs, 1 failure, 1 pending spec`; the failures numbered under `Failures:` (`1) Calculator divides`).
 */
export function jasmine(t: string): TestReport | null {
  const line = lastMatch(t, /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?/gm);
  if (!line) return null;
  const at = t.search(/^Failures:[ \t]*$/m);
  const section = at < 0 ? '' : (t.slice(at).split(/^(?:Pending:|\d+ specs?, )/m)[0] ?? '');
  const failing = [...section.matchAll(/^\d+\) (.*\S)[ \t]*$/gm)].map((m) => m[1] ?? '');
  const failed = n(line[2]);
  const pending = n(line[3]);
  return report('jasmine', n(line[1]) - failed - pending, failed, pending, failing);
}

/**
 * Karma (`ng test`): `TOTAL: 1 FAILED, 11 SUCCESS`, or the last `Executed 12 of 12 (1 FAILED) (skipped 2)` line;
 * failing specs as `Chrome Headless 120.0 (Linux x86_64) AppComponent renders FAILED`.
 */
export function karma(t: string): TestReport | null {
  const failing = [...t.matchAll(/^[\w .]+\([^)\n]*\) (.+?) FAILED[ \t]*$/gm)].map((m) => m[1] ?? '');
  const total = lastMatch(t, /^TOTAL: (?:(\d+) FAILED, )?(\d+) SUCCESS/gm);
  const executed = lastMatch(
    t,
    /Executed (\d+) of (\d+)(?: \((\d+) FAILED\))?(?: \(skipped (\d+)\))?(?: \(\d+ ERROR\))? (?:SUCCESS|ERROR|\()/g,
  );
  if (total) return report('karma', n(total[2]), n(total[1]), n(executed?.[4]), failing);
  // `Executed 5 of 12` without the rest skipped: the run was cut off
  if (!executed || n(executed[1]) + n(executed[4]) < n(executed[2])) return null;
  const failed = n(executed[3]);
  return report('karma', n(executed[1]) - failed, failed, n(executed[4]), failing);
}

/** AVA: `  2 tests passed`, `  1 test failed`, `  1 test skipped`, `  1 known failure`; failures as `✘ [fail]: name`. */
export function ava(t: string): TestReport | null {
  const counts = new Map<string, number>();
  for (const m of t.matchAll(
    /^[ \t]*(\d+) (?:tests? (passed|failed|skipped|todo)|(known) failures?)[ \t]*$/gm,
  ))
    counts.set(m[2] ?? m[3] ?? '', n(m[1]));
  if (!counts.has('passed') && !counts.has('failed')) return null;
  const failing = [...t.matchAll(/^[ \t]*✘ \[fail\]: (.+?)(?:\s{2,}.*)?$/gm)].map((m) => m[1] ?? '');
  const get = (k: string) => counts.get(k) ?? 0;
  return report('ava', get('passed') + get('known'), get('failed'), get('skipped') + get('todo'), failing);
}
