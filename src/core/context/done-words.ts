import type { DoneCommit } from './done-commits.js';

/** A push as the lists of work done say it: "pushed main (up to b2c3d4e)" for git's "main -> main". */
export const pushSaid = (summary: string): string =>
  summary.replace(/^((?:force-)?pushed) (\S+) -> \2(?= \(|$)/, '$1 $2');

/** The ref a push summary names ("main -> main"), whatever the push moved it to: null for another summary. */
export const pushTarget = (summary: string): string | null =>
  /^(?:force-)?pushed (\S+ -> \S+)/.exec(summary)?.[1] ?? null;

/** A commit as the lists of work done say it: its hash and subject, or, git not confirming it, its task and command. */
export const commitSaid = (c: DoneCommit): string =>
  c.hash ? `commit ${c.hash} ${c.subject}` : `[commit] ${c.task_id ? `${c.task_id}: ` : ''}${c.subject}`;

/**
 * A pull request as the lists of work done say it: one opened by its address ("pull request https://.../pull/7"), a
 * merge by what it did, which names the pull request already ("merged PR #7", "enabled auto-merge of PR #221", not
 * "pull request enabled auto-merge of PR #221").
 */
export const pullRequestSaid = (pr: string): string => (/^https?:\/\//.test(pr) ? `pull request ${pr}` : pr);
