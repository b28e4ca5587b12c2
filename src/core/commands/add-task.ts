import type { Draft } from '../draft.js';
import { invalidInput, invalidTransition } from '../errors.js';
import { validateTaskGraph } from '../task-graph.js';
import { isTerminal } from '../workflow-machine.js';
import { TaskSpec, type Task } from '../schemas/workflow.js';
import { BatonError } from '../errors.js';
import { noSuchTask } from './no-such-task.js';

export interface AddTaskInput {
  /** Default (absent or empty): the next free `T<n>` (`nextTaskId`). */
  id?: string | null;
  title: string;
  description?: string;
  deps?: string[];
  /** Default: the lane of the task it is placed after, else the highest lane of the plan (0 for none). */
  lane?: number | null;
  /** Place it right after this task in the plan's order (default: at the end). */
  after?: string | null;
}

/**
 * The id a task given without one takes: `T` and one more than the highest number of the plan's `T<n>` ids (T1 in an
 * empty plan), so a person who types only a title gets the ids a plan written by hand would have, and the agent's list items the
 * same series.
 */
export function nextTaskId(ids: readonly string[]): string {
  let max = 0;
  for (const id of ids) {
    const m = /^T(\d+)$/.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `T${max + 1}`;
}

/** Adds a task to the plan (`task.added`): a new id, known dependencies, no cycle, on an unfinished workflow. */
export function addTask(d: Draft, given: AddTaskInput, origin = 'user', at: string | null = null): Task {
  const s = d.state;
  const input = { ...given, id: given.id?.trim() || nextTaskId(s.tasks.map((t) => t.id)) };
  if (isTerminal(s.status)) {
    throw invalidTransition(`cannot add task ${input.id}: the workflow is ${s.status}`, {
      current_status: s.status,
    });
  }
  const after = input.after ?? null;
  const anchor = after === null ? null : s.tasks.find((t) => t.id === after);
  if (after !== null && !anchor) throw noSuchTask(s, after, `task ${after} (--after)`);
  const lane = input.lane ?? anchor?.lane ?? Math.max(0, ...s.tasks.map((t) => t.lane));
  const parsed = TaskSpec.safeParse({ ...input, lane, after: undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(`task ${input.id || '?'}: ${issue?.path.join('.') || 'task'}: ${issue?.message}`);
  }
  const spec = parsed.data;
  if (s.tasks.some((t) => t.id === spec.id))
    throw invalidInput(`task ${spec.id} already exists in workflow ${s.id}`, { task_id: spec.id });
  validateTaskGraph([...s.tasks, spec]);
  d.emit({
    type: 'task.added',
    task_id: spec.id,
    data: { task: spec, after, origin, ...(at ? { at } : {}) },
  });
  const task = d.state.tasks.find((t) => t.id === spec.id);
  if (!task) throw new BatonError('internal', `task.added did not add ${spec.id}`);
  return task;
}
