import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { ciCommandOf, listsPending, reportedChecks } from '../rules/errors/ci-checks.js';

/**
 * What the CI service said of the checks, as the agent read it with the GitHub CLI: a fact of its own beside the
 * local test runs (src/extraction/session/test-runs.ts), which it never is. `pass`: every check the report listed
 * passed; `fail`: one of them failed (said even while others still run). A report of checks still running, none
 * failed yet, says nothing of how CI stands and is left out.
 */
export interface CiReport {
  line: number;
  at: string | null;
  outcome: 'pass' | 'fail';
  passed: number;
  failed: number;
  /** The checks that failed, by name (the first ten). */
  failing: string[];
  /** The gh command that read it (`gh pr checks 1075 --repo jdx/hk --json name,state`). */
  command: string;
  /** The commit the checks ran on, when the report names it (`"headSha": "ba28c63..."`). */
  commit: string | null;
  /** The report's output was cut (the transcript kept its ends): the counts are of what it kept. */
  cut?: true;
}

/** The CI reports of a stretch of the session, in transcript order (a sub-agent's too: CI is the same for all). */
export function findCiReports(entries: readonly TranscriptEntry[]): CiReport[] {
  const out: CiReport[] = [];
  for (const e of entries) {
    if (e.kind !== 'tool_result') continue;
    const command = ciCommandOf(e);
    if (!command) continue;
    const { checks } = reportedChecks(e);
    const failing = [...new Set(checks.filter((c) => c.status === 'fail').map((c) => c.name))];
    const passed = checks.filter((c) => c.status === 'pass').length;
    if (failing.length === 0 && (passed === 0 || listsPending(e.text))) continue;
    out.push({
      line: e.line,
      at: e.at,
      outcome: failing.length ? 'fail' : 'pass',
      passed,
      failed: failing.length,
      failing: failing.slice(0, 10),
      command,
      commit: /"headSha"\s*:\s*"([0-9a-f]{7,40})"/.exec(e.text)?.[1] ?? null,
      ...(e.truncated ? { cut: true as const } : {}),
    });
  }
  return out;
}
