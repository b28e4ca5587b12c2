import { failingCount } from '../commands/records.js';
import { reportedOf } from '../context/done-commits.js';
import { commitSaid } from '../context/done-words.js';
import type { UsageTotals } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import { shortHash } from '../short-hash.js';

/** Where a task's work began, as `baton run` saw it: when, and the workflow's usage totals then. */
export interface TaskBegan {
  at: string;
  usage: UsageTotals | null;
}

/** What Baton recorded of one task's work in a run: its commits, its last test run, what its agent used. */
export interface TaskProduced {
  /** Each as the lists of work done say one (`commit 4f02117 Add the parser`). */
  commits: string[];
  /** The last test run since the task began: its result, or how many tests failed; null when none ran. */
  tests: { command: string | null; result: string; failing: number } | null;
  /** Tokens and cost its agent runs added to the workflow's totals; null when none were reported. */
  tokens: number | null;
  cost_usd: number | null;
}

/**
 * What a task produced, from the records: the commits the side-effect ledger holds for it, the last test run since
 * it began (`began`; none known without it), and what the workflow's usage totals grew by since then.
 */
export function taskProduced(s: WorkflowState, taskId: string, began: TaskBegan | null): TaskProduced {
  const commits = (s.side_effects ?? [])
    .filter((e) => e.kind === 'commit' && e.task_id === taskId)
    .map((e) => {
      const c = reportedOf(e);
      return commitSaid({ hash: c.hash ? shortHash(c.hash) : '', subject: c.subject, task_id: taskId });
    });
  const t = s.test_state;
  const ran = t?.last_test_run_at && began && Date.parse(t.last_test_run_at) >= Date.parse(began.at);
  const tests =
    t && ran
      ? {
          command: t.last_test_command,
          result: t.last_test_output_summary ?? (failingCount(t) ? 'failing' : 'passed'),
          failing: failingCount(t),
        }
      : null;
  const now = s.usage_total;
  const grew = (k: 'tokens_used' | 'cost_usd') =>
    began && now ? Math.max(0, now[k] - (began.usage?.[k] ?? 0)) : 0;
  return {
    commits,
    tests,
    tokens: grew('tokens_used') || null,
    // an agent that reports no cost (Codex) adds none: not known, rather than $0.00
    cost_usd: Math.round(grew('cost_usd') * 1e6) / 1e6 || null,
  };
}
