import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import { validateTaskGraph } from '../task-graph.js';
import { tasksOfList, type TasksRead } from '../plan-tasks.js';
import type { GitStart } from '../schemas/git-state.js';
import type { AgentRef, EarlierWorkflow, Issue, TaskSpec } from '../schemas/workflow.js';

export interface CreateInput {
  title: string;
  issue: Issue | null;
  worktree: string;
  plan: string;
  tasks: TaskSpec[];
  git_start: GitStart | null;
  /**
   * Created by an agent's hook (auto_track): session 1 follows that agent session, or, its id not known (a payload
   * without one), whichever the next hook that names one ties to it.
   */
  agent?: AgentRef;
  /** The title is a stand-in: the first request recorded names the workflow (a hook's or an import's workflow). */
  titleFromRequest?: boolean;
  /** The completed workflow of the same conversation this one goes on from (a hook's, for a resumed conversation). */
  earlier?: EarlierWorkflow;
  /** The git identity of the worktree it is made in (null: none set): whose work it is. */
  owner?: string | null;
}

/**
 * The tasks a workflow given none is made with: the list of its plan, else of its issue's description (`listedTasks`),
 * with the items checked there already done; null when neither has a list, or tasks were given.
 */
export function tasksFromPlan(
  input: Pick<CreateInput, 'plan' | 'issue'> & { tasks: readonly unknown[] },
): (TasksRead & { from: 'plan' | 'issue' }) | null {
  if (input.tasks.length) return null;
  const plan = tasksOfList(input.plan);
  if (plan) return { ...plan, from: 'plan' };
  const issue = tasksOfList(input.issue?.description ?? '');
  return issue ? { ...issue, from: 'issue' } : null;
}

/** A new workflow: `workflow.created` with its task graph, and session 1. */
export function createWorkflow(d: Draft, input: CreateInput): void {
  if (!input.title.trim()) throw invalidInput('a workflow needs a title (--title)');
  const listed = tasksFromPlan(input);
  const tasks = listed?.tasks ?? input.tasks;
  validateTaskGraph(tasks);
  const { agent, titleFromRequest, owner, ...rest } = { ...input, tasks };
  const data = owner ? { ...rest, owner } : rest;
  d.emit({
    type: 'workflow.created',
    data: agent || titleFromRequest ? { ...data, auto_tracked: true } : data,
  });
  // checked in the plan: done before any session, so no session counts them as its work
  for (const id of listed?.done ?? [])
    d.emit({ type: 'task.completed', task_id: id, data: { summary: 'checked in the plan' } });
  // created for an agent session already at work (a hook): under way at once, so pause and resume apply
  if (agent) d.emit({ type: 'workflow.started', data: {} });
  d.emit({
    type: 'session.started',
    session_number: 1,
    data: agent && agent.session_id !== null ? { origin: 'create', agent } : { origin: 'create' },
  });
}
