import { notFound, type BatonError } from '../errors.js';
import { cliWord } from '../surface-words.js';
import type { WorkflowState } from '../schemas/state.js';

/**
 * A task named that the workflow does not hold (`named`: how the caller named it, e.g. "task T9 (--after)"), said with
 * what is there and what adds one: an empty list alone ("tasks: ") leaves the caller guessing. Every command that
 * takes a task id says it so.
 */
export function noSuchTask(
  s: Pick<WorkflowState, 'id' | 'tasks'>,
  id: string,
  named = `task ${id}`,
): BatonError {
  const ids = s.tasks.map((x) => x.id);
  const there = ids.length ? `, whose tasks are ${ids.join(', ')}` : ': it has no tasks yet';
  return notFound(`${named} is not in workflow ${s.id}${there} (${cliWord('addTask')} adds one)`, {
    task_id: id,
  });
}
