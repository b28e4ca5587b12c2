import type { TestReport } from './test-output.js';

/** Pieces the runners' summary readers share: numbers, names, the last match, a report. */

/** A captured number (0 when the group did not match). */
export const n = (s: string | undefined) => (s === undefined ? 0 : Number(s));

/** Names trimmed, empty ones and repeats left out, in order. */
export const unique = (items: string[]) => [...new Set(items.map((s) => s.trim()).filter(Boolean))];

/** A count a summary's text names (`3 failed` for `failed`, a pattern such as `errors?` too), null when not there. */
export const countIn = (text: string | undefined, name: string): number | null => {
  const m = new RegExp(`(\\d+) ${name}`).exec(text ?? '');
  return m?.[1] === undefined ? null : Number(m[1]);
};

/** The last match of a global pattern (a runner's summary is printed last; earlier ones are per file or suite). */
export const lastMatch = (t: string, re: RegExp) => [...t.matchAll(re)].at(-1) ?? null;

/** A report without coverage; passed null when the output does not count the passing tests. */
export const report = (
  runner: string,
  passed: number | null,
  failed: number,
  skipped: number | null,
  failing: string[],
): TestReport => ({
  runner,
  passed: passed === null ? null : Math.max(0, passed),
  failed,
  skipped,
  failing: unique(failing),
  coverage: null,
});
