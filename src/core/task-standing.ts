import type { Task } from './schemas/index.js';
import { inProgressTasks, nextTask, unfinishedTasks } from './task-graph.js';
import { isTerminal } from './workflow-machine.js';
import type { WorkflowStatus } from './schemas/workflow.js';

type Tasks<T> = { status: WorkflowStatus; tasks: readonly T[] };

/**
 * Where a workflow's tasks stand for it, not only for themselves: a finished workflow (completed, failed, cancelled)
 * goes on with nothing, so none of its tasks is under way or next, whatever status the task last had. One rule for
 * `baton status`, the REST status, the workflow list and the session status alike.
 */

/** The task the workflow goes on with; none once it is finished. */
export const nextTaskOf = (s: Tasks<Task>): Task | null => (isTerminal(s.status) ? null : nextTask(s.tasks));

/** The tasks under way; none once the workflow is finished (an abandoned task is nobody's work). */
export const tasksUnderWay = (s: Tasks<Task>): Task[] =>
  isTerminal(s.status) ? [] : inProgressTasks(s.tasks);

/** The tasks a finished workflow left not done (as `baton complete --force` names them); none while it is open. */
export const leftOpen = <T extends Pick<Task, 'status'>>(s: Tasks<T>): T[] =>
  isTerminal(s.status) ? unfinishedTasks(s.tasks) : [];
