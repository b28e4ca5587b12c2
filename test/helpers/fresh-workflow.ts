import { createWorkflow, type CreateInput } from '../../src/core/commands/create.js';
import { Draft, type CommandContext } from '../../src/core/draft.js';
import type { TaskSpec } from '../../src/core/schemas/workflow.js';

/**
 * A command context for core tests: a fixed clock, ids counted from 1 per context (`task-1`, `session-2`...) and
 * the user acting; `over` changes any of them.
 */
export function testContext(over: Partial<CommandContext> = {}): CommandContext {
  let n = 0;
  return { now: '2026-03-01T10:00:00.000Z', newId: (p) => `${p}-${++n}`, actor: 'user', ...over };
}

/** Tasks of lane 0 with no description or dependency. */
export const tasksOf = (...tasks: { id: string; title: string }[]): TaskSpec[] =>
  tasks.map(({ id, title }) => ({ id, title, description: '', deps: [], lane: 0 }));

/**
 * A draft holding a new workflow (`id`, wf-1 by default) at /w: titled "w", with no issue, plan, tasks or git start,
 * unless `input` says otherwise; `ctx`: the command context (testContext's by default).
 */
export function freshWorkflow(
  input: Partial<CreateInput> = {},
  ctx: CommandContext = testContext(),
  id = 'wf-1',
): Draft {
  const d = new Draft(null, ctx, id);
  createWorkflow(d, {
    title: 'w',
    issue: null,
    worktree: '/w',
    plan: '',
    tasks: [],
    git_start: null,
    ...input,
  });
  return d;
}
