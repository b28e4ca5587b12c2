import { clip } from '../clip.js';
import { counted } from '../counted.js';
import { shortHash } from '../short-hash.js';
import type { SideEffect } from '../schemas/runtime.js';
import type { Task } from '../schemas/workflow.js';
import { amendNote, reportedOf } from './done-commits.js';

/** The commits recorded since a task in progress started: how many, and the latest as `<hash> <subject>`. */
export interface CommitsSince {
  count: number;
  latest: string;
}

/**
 * The commits the side-effect ledger recorded (a transcript's `git commit` output, `baton run`'s command) after
 * `task` started while it is still in progress, leaving out those recorded for another task: work the task list
 * may not show. An agent often commits and never marks the task done (a "Commit ..." task left in progress), so the
 * next session is told to check rather than commit again. Null when the task is not in progress or none was made.
 * Commits only git has (made by hand, or whose call never returned) carry no time, and are not counted.
 */
export function commitsSinceStarted(
  task: Pick<Task, 'id' | 'status' | 'started_at'> | null | undefined,
  effects: readonly SideEffect[],
  subjectChars: number,
): CommitsSince | null {
  if (!task || task.status !== 'in_progress' || !task.started_at) return null;
  const started = Date.parse(task.started_at);
  const made = effects.filter(
    (e) =>
      e.kind === 'commit' &&
      (e.task_id === null || e.task_id === task.id) &&
      Date.parse(e.timestamp) >= started,
  );
  // the latest by when it was made (a transcript imported late records an older one after it); an amend replaces
  // the commit it amends rather than adding one
  const last = made.reduce<SideEffect | undefined>(
    (a, e) => (a && Date.parse(a.timestamp) > Date.parse(e.timestamp) ? a : e),
    undefined,
  );
  if (!last) return null;
  const count = made.filter((e) => !amendNote.test(reportedOf(e).subject)).length || 1;
  // a runner's commit git printed no line for is its command
  const { hash, subject } = reportedOf(last);
  const said = clip(subject.replace(amendNote, ''), subjectChars);
  const latest = hash ? `${shortHash(hash)} ${said}` : said;
  return { count, latest };
}

/**
 * What the next step says of those commits, after the task it names (the briefing's What to Do Next, the resume
 * report's next action): `a commit was made since it started: 4f6f15f divide; check whether it is done`. Null
 * without any.
 */
export function commitsSinceSaid(since: CommitsSince | null | undefined): string | null {
  if (!since) return null;
  const made =
    since.count === 1
      ? `a commit was made since it started: ${since.latest}`
      : `${counted(since.count, 'commit')} were made since it started, the latest ${since.latest}`;
  return `${made}; check whether it is done`;
}
