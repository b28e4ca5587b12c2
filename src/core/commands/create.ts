import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import { validateTaskGraph } from '../task-graph.js';
import type { Issue, TaskSpec } from '../schemas/workflow.js';

export interface CreateInput {
  title: string;
  issue: Issue | null;
  worktree: string;
  plan: string;
  tasks: TaskSpec[];
  git_start: { branch: string | null; commit: string | null } | null;
}

/** A new workflow: `workflow.created` with its task graph, and session 1. */
export function createWorkflow(d: Draft, input: CreateInput): void {
  if (!input.title.trim()) throw invalidInput('a workflow needs a title (--title)');
  validateTaskGraph(input.tasks);
  d.emit({ type: 'workflow.created', data: input });
  d.emit({ type: 'session.started', session_number: 1, data: { origin: 'create' } });
}
