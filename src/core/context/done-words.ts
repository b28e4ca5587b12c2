import type { DoneCommit } from './done-commits.js';

/** A push as the lists of work done say it: "pushed main" for git's "main -> main". */
export const pushSaid = (summary: string): string => summary.replace(/^pushed (\S+) -> \1$/, 'pushed $1');

/** A commit as the lists of work done say it: its hash and subject, or, git not confirming it, its task and command. */
export const commitSaid = (c: DoneCommit): string =>
  c.hash ? `commit ${c.hash} ${c.subject}` : `[commit] ${c.task_id ? `${c.task_id}: ` : ''}${c.subject}`;
