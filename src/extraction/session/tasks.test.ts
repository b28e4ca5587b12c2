import { describe, expect, it } from 'vitest';
import { parseClaudeTranscript } from '../../agents/claude-code/transcript.js';
import { parseCodexRollout } from '../../agents/codex/rollout.js';
import { claudeTool } from '../../../test/helpers/transcript-lines.js';
import { findTaskCalls, replayTasks } from './tasks.js';

const todo = (content: string, status: string) => ({ content, status, activeForm: content });
const finalList = (lines: string[]) =>
  replayTasks(findTaskCalls(parseClaudeTranscript(lines.join('\n')).entries)).map((t) => [
    t.content,
    t.status,
  ]);
const ok = 'Todos have been modified successfully. Ensure that you continue to use the todo list.';

describe('the final task list, as agents of other projects keep it', () => {
  it('leaves out a task deleted with TaskUpdate', () => {
    const lines = [
      ...claudeTool(
        'c1',
        'TaskCreate',
        { subject: 'Write the parser', description: 'd' },
        'Task #1 created successfully: Write the parser',
      ),
      ...claudeTool(
        'c2',
        'TaskCreate',
        { subject: 'Spike on a regex engine', description: 'd' },
        'Task #2 created successfully: Spike on a regex engine',
      ),
      ...claudeTool(
        'c3',
        'TaskCreate',
        { subject: 'Document the grammar', description: 'd' },
        'Task #3 created successfully: Document the grammar',
      ),
      ...claudeTool('u1', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, 'Updated task #1 status'),
      ...claudeTool('u2', 'TaskUpdate', { taskId: '2', status: 'deleted' }, 'Updated task #2 deleted'),
      ...claudeTool('u3', 'TaskUpdate', { taskId: '1', status: 'completed' }, 'Updated task #1 status'),
    ];
    expect(finalList(lines)).toEqual([
      ['Write the parser', 'completed'],
      ['Document the grammar', 'pending'],
    ]);
  });

  it('ignores a TodoWrite the tool refused (an invalid status)', () => {
    const lines = [
      ...claudeTool(
        't1',
        'TodoWrite',
        { todos: [todo('Add the flag', 'in_progress'), todo('Write docs', 'pending')] },
        ok,
      ),
      ...claudeTool(
        't2',
        'TodoWrite',
        { todos: [todo('Add the flag', 'done')] },
        '<tool_use_error>InputValidationError: TodoWrite failed due to the following issue:\nThe parameter `todos.0.status` type is expected as `enum` but provided as `string`</tool_use_error>',
        true,
      ),
    ];
    expect(finalList(lines)).toEqual([
      ['Add the flag', 'in_progress'],
      ['Write docs', 'pending'],
    ]);
  });

  it('keeps the done items of a replaced list, not its abandoned ones', () => {
    const lines = [
      ...claudeTool(
        't1',
        'TodoWrite',
        {
          todos: [
            todo('Reproduce the flaky test', 'completed'),
            todo('Fix the race in the worker pool', 'in_progress'),
          ],
        },
        ok,
      ),
      ...claudeTool(
        't2',
        'TodoWrite',
        {
          todos: [
            todo('Migrate the config to TOML', 'in_progress'),
            todo('Update the docs for TOML', 'pending'),
          ],
        },
        ok,
      ),
    ];
    expect(finalList(lines)).toEqual([
      ['Reproduce the flaky test', 'completed'],
      ['Migrate the config to TOML', 'in_progress'],
      ['Update the docs for TOML', 'pending'],
    ]);
  });

  it("reads Codex's update_plan, whose last plan replaces the one before", () => {
    const plan = (id: string, steps: [string, string][]) =>
      JSON.stringify({
        timestamp: '2025-10-01T09:00:00.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'update_plan',
          call_id: id,
          arguments: JSON.stringify({
            explanation: 'x',
            plan: steps.map(([step, status]) => ({ step, status })),
          }),
        },
      });
    const lines = [
      plan('p1', [
        ['Add the --json flag', 'in_progress'],
        ['Write tests', 'pending'],
      ]),
      plan('p2', [
        ['Add the --json flag', 'completed'],
        ['Write tests', 'completed'],
        ['Update the README', 'in_progress'],
      ]),
    ];
    const tasks = replayTasks(findTaskCalls(parseCodexRollout(lines.join('\n')).entries));
    expect(tasks.map((t) => [t.content, t.status])).toEqual([
      ['Add the --json flag', 'completed'],
      ['Write tests', 'completed'],
      ['Update the README', 'in_progress'],
    ]);
  });

  it('reads the todo_list items of `codex exec --json` (the whole list on each event)', () => {
    const todo = (type: string, items: [string, boolean][]) =>
      JSON.stringify({
        type,
        item: {
          id: 'item_3',
          type: 'todo_list',
          items: items.map(([text, completed]) => ({ text, completed })),
        },
      });
    const lines = [
      JSON.stringify({ type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' }),
      todo('item.started', [
        ['Find the failing assertion', false],
        ['Fix the rounding', false],
      ]),
      todo('item.updated', [
        ['Find the failing assertion', true],
        ['Fix the rounding', false],
      ]),
      todo('item.completed', [
        ['Find the failing assertion', true],
        ['Fix the rounding', true],
        ['Run the suite', false],
      ]),
    ];
    const tasks = replayTasks(findTaskCalls(parseCodexRollout(lines.join('\n')).entries));
    expect(tasks.map((t) => [t.content, t.status])).toEqual([
      ['Find the failing assertion', 'completed'],
      ['Fix the rounding', 'completed'],
      ['Run the suite', 'pending'],
    ]);
  });
});
