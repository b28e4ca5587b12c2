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
