import type { TestReport } from './test-output.js';
import { unique } from './summary-parts.js';

/**
 * One command's output can hold several test runs: a monorepo task runner's (turbo prefixes each line with
 * `web:test: `, `pnpm -r` with `packages/web test: `; nx heads each with `> nx run web:test`) or package scripts
 * chained (`> web@1.0.0 test:unit` then `> web@1.0.0 test:e2e`). Each run is read on its own and the reports added up.
 */

/** turbo's `web:test: ` and pnpm's `packages/web test: ` line prefixes. */
const linePrefix = /^([@\w][\w@./-]*(?::| )[\w-]+(?::[\w-]+)*):(?: |$)/;
/** nx's and npm's heading of a task or script: `> nx run web:test`, `> @acme/web@1.2.0 test`. */
const heading = /^[ \t]*> (?:nx run \S+|[@\w][\w@./-]*@\S+ \S+)/;

/** The runs of an output whose lines mostly carry a task prefix, one per prefix with the prefix taken off. */
function prefixedRuns(lines: string[]): string[] {
  const groups = new Map<string, string[]>();
  let prefixed = 0;
  for (const line of lines) {
    const m = linePrefix.exec(line);
    if (!m) continue;
    prefixed += 1;
    const key = m[1] ?? '';
    const group = groups.get(key) ?? [];
    if (!groups.has(key)) groups.set(key, group);
    group.push(line.slice(m[0].length));
  }
  const filled = lines.filter((l) => l.trim() !== '').length;
  if (prefixed < 3 || prefixed * 2 < filled || groups.size * 3 > prefixed) return [];
  return [...groups.values()].map((g) => g.join('\n'));
}

/** The runs an output holds: by line prefix (prefixes taken off), else between headings; [] when it is one plain run. */
export function runSections(t: string): string[] {
  const lines = t.split('\n');
  const byPrefix = prefixedRuns(lines);
  if (byPrefix.length > 0) return byPrefix;
  const sections: string[][] = [[]];
  for (const line of lines) {
    if (heading.test(line)) sections.push([]);
    sections.at(-1)?.push(line);
  }
  const runs = sections.filter((s) => s.some((l) => l.trim() !== ''));
  return runs.length > 1 ? runs.map((s) => s.join('\n')) : [];
}

const total = (values: (number | null)[]) =>
  values.every((v) => v === null) ? null : values.reduce<number>((s, v) => s + (v ?? 0), 0);

/** Several runs' reports as one: counts added, failing tests together, runners named together. */
export function combineReports(reports: TestReport[]): TestReport {
  return {
    runner: unique(reports.map((r) => r.runner)).join('+'),
    passed: total(reports.map((r) => r.passed)),
    failed: total(reports.map((r) => r.failed)),
    skipped: total(reports.map((r) => r.skipped)),
    failing: unique(reports.flatMap((r) => r.failing)),
    coverage: reports.length === 1 ? (reports[0]?.coverage ?? null) : null,
  };
}
