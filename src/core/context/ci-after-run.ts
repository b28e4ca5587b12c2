import { clip } from '../clip.js';
import type { CiState } from '../schemas/records.js';
import { shortHash } from '../short-hash.js';

/** The newest CI report, read after the last local test run: what TDD State says of it beside that run. */
export interface CiAfterRun {
  outcome: 'pass' | 'fail';
  passed: number;
  failed: number;
  failing: string[];
  command: string | null;
  /** The commit the checks ran on, by 7 digits, when the report named it. */
  commit: string | null;
  /** The report's output was cut: its counts are of the checks it kept. */
  cut: boolean;
  /**
   * The files changed after the local run were pushed before the report: the checks ran on them, so the local run's
   * being older than them is not the last word on them. False when no file changed after the run, or no push of
   * them was seen before the report (CI then ran on what came before them).
   */
  covers_changes: boolean;
}

const after = (a: string, b: string) => Date.parse(a) > Date.parse(b);

/**
 * The CI report `ci` when it came after the local run at `runAt` (an older one says nothing the run does not), with
 * whether it covers the files `changed` after that run: a push (among `effects`) after the last of them and before the
 * report. Its command cut to `commandChars`, none at 0 (no room for it).
 */
export function ciAfterRun(
  runAt: string | null,
  ci: CiState | null,
  changed: readonly { timestamp: string }[],
  effects: readonly { kind: string; timestamp: string }[],
  commandChars: number,
): CiAfterRun | null {
  if (!ci || (runAt && !after(ci.at, runAt))) return null;
  const last = changed
    .map((e) => e.timestamp)
    .reduce<string | null>((a, b) => (!a || after(b, a) ? b : a), null);
  const pushed =
    last !== null &&
    effects.some((e) => e.kind === 'push' && after(e.timestamp, last) && !after(e.timestamp, ci.at));
  return {
    outcome: ci.outcome,
    passed: ci.passed,
    failed: ci.failed,
    failing: ci.failing,
    command: ci.command && commandChars > 0 ? clip(ci.command, commandChars) : null,
    commit: ci.commit ? shortHash(ci.commit) : null,
    cut: ci.cut ?? false,
    covers_changes: pushed,
  };
}

/** A CI report as TDD State says it: its counts, the failing checks, the commit and the command that read it. */
export function ciSaid(ci: CiAfterRun): string {
  // a report cut short counts only the checks it kept: not "of" a total it never showed
  const of = ci.cut ? '' : ` of ${ci.passed + ci.failed}`;
  const kept = ci.cut ? ', of those its cut output kept' : '';
  const counts =
    ci.outcome === 'pass'
      ? `${ci.passed}${of} checks passed${kept}`
      : `${ci.failed}${of} checks failed${ci.failing.length ? ` (${ci.failing.join(', ')})` : ''}${kept}`;
  const on = ci.commit ? ` on ${ci.commit}` : '';
  return `${counts}${on}${ci.command ? `, read by \`${ci.command}\`` : ''}`;
}
