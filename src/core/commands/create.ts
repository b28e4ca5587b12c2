import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import { validateTaskGraph } from '../task-graph.js';
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

/** A new workflow: `workflow.created` with its task graph, and session 1. */
export function createWorkflow(d: Draft, input: CreateInput): void {
  if (!input.title.trim()) throw invalidInput('a workflow needs a title (--title)');
  validateTaskGraph(input.tasks);
  const { agent, titleFromRequest, owner, ...rest } = input;
  const data = owner ? { ...rest, owner } : rest;
  d.emit({
    type: 'workflow.created',
    data: agent || titleFromRequest ? { ...data, auto_tracked: true } : data,
  });
  // created for an agent session already at work (a hook): under way at once, so pause and resume apply
  if (agent) d.emit({ type: 'workflow.started', data: {} });
  d.emit({
    type: 'session.started',
    session_number: 1,
    data: agent && agent.session_id !== null ? { origin: 'create', agent } : { origin: 'create' },
  });
}
