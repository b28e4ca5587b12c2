import { invalidInput } from './errors.js';
import { NewTask, type Task, type TaskSpec } from './schemas/workflow.js';

/**
 * Declared tasks read one by one as `NewTask`s; the first that is not one is said with its place and id ("task 2
 * (T2): unknown key "depends" (a task has ...)").
 */
export function readNewTasks(list: readonly unknown[]): TaskSpec[] {
  return list.map((t, i) => {
    const parsed = NewTask.safeParse(t);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const id = (t as { id?: unknown } | null)?.id;
    const where = issue?.path.join('.');
    throw invalidInput(
      `task ${i + 1}${typeof id === 'string' ? ` (${id})` : ''}: ${where ? `${where}: ` : ''}${issue?.message ?? 'not a task'}`,
    );
  });
}

/** Checks a declared task list: unique ids, known dependencies, no cycles. Returns the specs unchanged. */
export function validateTaskGraph(specs: readonly TaskSpec[]): readonly TaskSpec[] {
  const ids = new Set<string>();
  for (const t of specs) {
    if (ids.has(t.id)) throw invalidInput(`task ${t.id} is declared twice`, { task_id: t.id });
    ids.add(t.id);
  }
  for (const t of specs) {
    for (const d of t.deps) {
      if (!ids.has(d))
        throw invalidInput(`task ${t.id} depends on unknown task ${d}`, { task_id: t.id, dep: d });
      if (d === t.id) throw invalidInput(`task ${t.id} depends on itself`, { task_id: t.id });
    }
  }
  const byId = new Map(specs.map((t) => [t.id, t]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting') {
      throw invalidInput(`task dependencies form a cycle: ${[...path, id].join(' -> ')}`, {
        cycle: [...path, id],
      });
    }
    state.set(id, 'visiting');
    for (const d of byId.get(id)?.deps ?? []) visit(d, [...path, id]);
    state.set(id, 'done');
  };
  for (const t of specs) visit(t.id, []);
  return specs;
}

const finished = (t: Pick<Task, 'status'>) => t.status === 'done' || t.status === 'skipped';

/** The tasks not done or skipped (pending, in progress, blocked, failed), in their order. */
export const unfinishedTasks = <T extends Pick<Task, 'status'>>(tasks: readonly T[]): T[] =>
  tasks.filter((t) => !finished(t));

/**
 * Runnable tasks, in lane then declaration order: dependencies done, not done, not blocked, not running,
 * and every task of an earlier lane finished (the Resume Protocol's bootstrap-before-development rule).
 */
export function runnableTasks(tasks: readonly Task[]): Task[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const open = tasks.filter((t) => !finished(t));
  const lowestOpenLane = open.length ? Math.min(...open.map((t) => t.lane)) : 0;
  return tasks
    .filter((t) => t.status === 'pending' || t.status === 'failed')
    .filter((t) => t.lane <= lowestOpenLane)
    .filter((t) =>
      t.deps.every((d) => {
        const dep = byId.get(d);
        return dep !== undefined && finished(dep);
      }),
    )
    .sort((a, b) => a.lane - b.lane);
}

export const inProgressTasks = (tasks: readonly Task[]) => tasks.filter((t) => t.status === 'in_progress');

/**
 * The task under way: of those in progress in the lowest lane (an earlier lane finishes first), the one started last
 * (two conversations of one worktree each start their own, and an agent that moved on may leave the one before in
 * progress); one with no start recorded before any started, the first listed among equals.
 */
export function currentTask(tasks: readonly Task[]): Task | null {
  const started = (t: Task) => (t.started_at ? Date.parse(t.started_at) : -Infinity);
  return inProgressTasks(tasks).reduce<Task | null>(
    (best, t) =>
      !best || t.lane < best.lane || (t.lane === best.lane && started(t) > started(best)) ? t : best,
    null,
  );
}

/**
 * A task of an earlier plan that a later list left out: an agent's list made it (`planned_in`) in a Baton session
 * before the one whose list left it out, and the agent whose list that was (`left_out.by`) was told so (it could take
 * it into its list in its words). A task the user added, or one made in the session that left it out, is real open
 * work: never left behind.
 */
const leftFromEarlierPlan = (t: Pick<Task, 'planned_in' | 'left_out'>): boolean =>
  t.planned_in !== undefined &&
  t.left_out?.session != null &&
  t.planned_in < t.left_out.session &&
  t.left_out.told.includes(t.left_out.by);

/**
 * The open tasks left from an earlier plan (`leftFromEarlierPlan`), when they are all that is open: no list took them
 * up again and every other task is finished. They hold no work open (a list that moved on without them is done), but
 * they are not done either: they are handed on, named, for the next session to check whether they are still needed.
 * Empty otherwise.
 */
export function leftBehind<T extends Pick<Task, 'status' | 'planned_in' | 'left_out'>>(
  tasks: readonly T[],
): T[] {
  const open = unfinishedTasks(tasks);
  return open.length && open.every(leftFromEarlierPlan) ? open : [];
}

/** How tasks left from an earlier plan (`leftBehind`) are said: by the briefing, `baton status`, a completion. */
export const leftBehindWords = (ids: readonly string[]) =>
  `${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} left from an earlier plan, never taken up again by a later list: check whether ${ids.length === 1 ? 'it is' : 'they are'} still needed`;

/** The task under way, unless every open task is left from an earlier plan (`leftBehind`): none is then. */
export const taskUnderWay = (tasks: readonly Task[]): Task | null =>
  leftBehind(tasks).length ? null : currentTask(tasks);

/**
 * The task a resumed session should work on: the one under way, else the first runnable one; none when only tasks
 * left from an earlier plan are open (`leftBehind`: to check, not to continue).
 */
export const nextTask = (tasks: readonly Task[]): Task | null =>
  leftBehind(tasks).length ? null : (currentTask(tasks) ?? runnableTasks(tasks)[0] ?? null);

export const allFinished = (tasks: readonly Task[]) => tasks.length > 0 && tasks.every(finished);

/**
 * The work of a task list is over: every task finished, or all that is open left from an earlier plan (`leftBehind`).
 * The one rule for a task boundary (a task marked done) and for the work a followed conversation did (finished-work).
 */
export const tasksOver = (tasks: readonly Task[]) => allFinished(tasks) || leftBehind(tasks).length > 0;

/**
 * The share of a workflow's tasks that is finished (done or skipped: no work left in them), in whole percent: 0 for a
 * workflow without tasks. A bar fills with it; the words beside it say the done and the skipped apart (`progressLabel`).
 */
export const progressPercent = (c: { finished: number; total: number }) =>
  c.total ? Math.round((c.finished / c.total) * 100) : 0;

/**
 * A task list counted: the one place every surface (status, list, sessions, the API, the run folder) takes its
 * figures from. `done` is the tasks done, never a skipped one; `finished` is done and skipped together (no work left
 * in them), and `remaining` the rest. A task left from an earlier plan (`leftBehind`) is counted as left behind, not
 * by the status it was left with: one still marked in progress is nobody's work under way.
 */
export function taskCounts(tasks: readonly Task[]) {
  const left = new Set(leftBehind(tasks));
  const count = (s: Task['status']) => tasks.filter((t) => t.status === s && !left.has(t)).length;
  const finishedCount = tasks.filter(finished).length;
  return {
    total: tasks.length,
    done: count('done'),
    finished: finishedCount,
    remaining: tasks.length - finishedCount,
    pending: count('pending'),
    in_progress: count('in_progress'),
    failed: count('failed'),
    blocked: count('blocked'),
    skipped: count('skipped'),
    left_behind: left.size,
  };
}

/**
 * "1/6 done, 2 skipped, 1 failed": the one way progress is said, from `taskCounts`. The words say how many were done
 * and how many skipped, never a skipped one as done, and how many failed (work that needs a look before it goes on).
 * A table's column (the sessions table's STEP, `baton list`) leaves out the word (`word: ''`).
 */
export const progressLabel = (
  c: { done: number; total: number; skipped: number; failed?: number },
  word = ' done',
) =>
  `${c.done}/${c.total}${word}${c.skipped ? `, ${c.skipped} skipped` : ''}${c.failed ? `, ${c.failed} failed` : ''}`;

/**
 * Tasks grouped per lane, with done/total: the resume report's "Bootstrap Tasks: 3/5 complete". Its `done` is the
 * Resume Protocol's "complete", a lane's tasks finished (done or skipped), as the run folder's format keeps it.
 */
export function laneProgress(tasks: readonly Task[]) {
  const lanes = new Map<number, { lane: number; done: number; total: number }>();
  for (const t of tasks) {
    const l = lanes.get(t.lane) ?? { lane: t.lane, done: 0, total: 0 };
    l.total += 1;
    if (finished(t)) l.done += 1;
    lanes.set(t.lane, l);
  }
  return [...lanes.values()].sort((a, b) => a.lane - b.lane);
}
