import { agentSummaries, type AgentSummary } from '../../agents/agent-summaries.js';
import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { declinedByUser, failed } from '../rules/errors/failure.js';
import { findCiReports, type CiReport } from './ci-reports.js';
import { findFileEffects } from './file-effects.js';
import { findGitEffects, type Commit, type Effect } from './git-effects.js';
import { findRemoteEffects } from './remote-effects.js';
import { findRequests, type UserRequest } from './requests.js';
import { findTaskCalls, replayTasks, type AgentTask, type TaskToolCall } from './tasks.js';
import { findTestRuns, type TestRun } from './test-runs.js';

export type { AgentSummary };

/** What a careful reader takes from a stretch of a session (deterministic, offline). */
export interface SessionFacts {
  requests: UserRequest[];
  task_calls: TaskToolCall[];
  /** The task list after these calls alone (the task graph folds them into what came before). */
  tasks: AgentTask[];
  commits: Commit[];
  /**
   * Commits, pushes, pull requests, files changed and what was written elsewhere (comments, issues, releases), in
   * transcript order: the side-effect ledger.
   */
  effects: Effect[];
  test_runs: TestRun[];
  /** What CI said of the checks the agent read (`gh pr checks`, `gh run view`): beside the test runs, never one. */
  ci_reports: CiReport[];
  /**
   * Every compaction summary, then the agent's last message (each kept whole), then the usage-limit notice and the
   * user's interruption the entries end on, when they do (src/agents/agent-summaries.ts, which `baton run` reads its agent's output with).
   */
  summaries: AgentSummary[];
}

/**
 * `fromStart`: the entries begin at the transcript's first line (not a piece after an earlier import), so what the
 * agent did not say in them it never said. `folder`: where in the worktree the agent worked, when below its root
 * (the files it names relative to that folder are taken there). `root`: another machine's folder taken as the
 * worktree's root (`findFileEffects`). `prsBefore`: the pull requests an earlier import recorded (its `pr` side
 * effects), which these entries may show merged.
 */
export function readSession(
  entries: readonly TranscriptEntry[],
  opts: {
    fromStart?: boolean;
    folder?: string | null;
    root?: string | null;
    prsBefore?: readonly string[];
  } = {},
): SessionFacts {
  const taskCalls = findTaskCalls(entries);
  const git = findGitEffects(entries, opts.prsBefore);
  const files = findFileEffects(entries, opts.folder ?? null, opts.root ?? null);
  const effects = [...git.effects, ...files, ...findRemoteEffects(entries)].sort((a, b) => a.line - b.line);
  return {
    requests: findRequests(entries),
    task_calls: taskCalls,
    tasks: replayTasks(taskCalls),
    commits: git.commits,
    effects,
    test_runs: findTestRuns(entries),
    ci_reports: findCiReports(entries),
    // the last calls judged as the errors are, so the two say the same of a call
    summaries: agentSummaries(entries, { fromStart: opts.fromStart, failed, declined: declinedByUser }),
  };
}
