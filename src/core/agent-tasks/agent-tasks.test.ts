import { describe, expect, it } from 'vitest';
import { addTask } from '../commands/add-task.js';
import { linkAgentSession } from '../commands/agent-session.js';
import { notLinkedPhrase, syncAgentTasks } from '../commands/agent-tasks.js';
import type { Draft } from '../draft.js';
import { foldEvents } from '../fold.js';
import { applyAgentTaskCalls } from './reduce-agent-tasks.js';
import { createdTaskId, isAgentTaskTool, type AgentTaskCall } from './agent-task-calls.js';
import { freshWorkflow, tasksOf } from '../../../test/helpers/fresh-workflow.js';

let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'user' };
const todo = (content: string, status: string) => ({ content, status, activeForm: `${content}ing` });
const write = (id: string, ...todos: ReturnType<typeof todo>[]): AgentTaskCall => ({
  tool: 'TodoWrite',
  id,
  input: { todos },
});

const workflow = (tasks: { id: string; title: string }[] = []) =>
  freshWorkflow({ tasks: tasksOf(...tasks) }, ctx);
const statuses = (d: Draft) => Object.fromEntries(d.state.tasks.map((t) => [t.title, t.status]));

describe("the agent's task list reducer", () => {
  it('keeps keys across whole lists, through a small rewording', () => {
    const a = applyAgentTaskCalls(
      [],
      [
        write(
          '1',
          todo('Review the session tracking code', 'in_progress'),
          todo('Write the spec', 'pending'),
        ),
      ],
    );
    const b = applyAgentTaskCalls(a, [
      write(
        '2',
        todo('Review the current session tracking code', 'completed'),
        todo('Write the spec', 'in_progress'),
      ),
    ]);
    expect(b.map((i) => [i.key, i.status])).toEqual([
      [a[0]!.key, 'completed'],
      [a[1]!.key, 'in_progress'],
    ]);
    expect(b[0]!.content).toBe('Review the current session tracking code');
  });

  it('keeps the key of a short item reworded in place, not of a new step put where a finished one was', () => {
    const a = applyAgentTaskCalls(
      [],
      [
        write(
          '1',
          todo('Add the parser', 'completed'),
          todo('Write README', 'in_progress'),
          todo('Tag', 'pending'),
        ),
      ],
    );
    // "Write README" -> "Finish README": one word of two changed, at the same place
    const b = applyAgentTaskCalls(a, [
      write(
        '2',
        todo('Add the parser', 'completed'),
        todo('Finish README', 'in_progress'),
        todo('Tag', 'pending'),
      ),
    ]);
    expect(b.map((i) => i.key)).toEqual(a.map((i) => i.key));
    // a step sharing no word with the item it replaces is a new item
    const c = applyAgentTaskCalls(b, [
      write('3', todo('Add the parser', 'completed'), todo('Set up CI', 'pending'), todo('Tag', 'pending')),
    ]);
    expect(c[1]!.key).not.toBe(b[1]!.key);
    // nor is a step under way the finished one at its place, whatever word they share
    const done = applyAgentTaskCalls(
      [],
      [
        write(
          '4',
          todo('Add sub and mul to calc.py', 'completed'),
          todo('Write unittest tests', 'completed'),
          todo('Run tests and commit', 'completed'),
        ),
      ],
    );
    const next = applyAgentTaskCalls(done, [
      write(
        '5',
        todo('Add div with zero check', 'completed'),
        todo('Test div', 'completed'),
        todo('Commit and push', 'in_progress'),
      ),
    ]);
    expect(next.map((i) => i.key).filter((k) => done.some((d) => d.key === k))).toEqual([]);
  });

  it('keeps the key of the one step a plan refines, at its place, sharing a word with it', () => {
    const plan = (id: string, ...steps: [string, string][]): AgentTaskCall => ({
      tool: 'update_plan',
      id,
      input: { plan: steps.map(([step, status]) => ({ step, status })) },
    });
    const a = applyAgentTaskCalls(
      [],
      [plan('1', ['Inspect math.js', 'in_progress'], ['Add logging', 'pending'], ['Run tests', 'pending'])],
    );
    const b = applyAgentTaskCalls(a, [
      plan(
        '2',
        ['Inspect math.js', 'completed'],
        ['Add debug logging behind DEBUG env var', 'in_progress'],
        ['Run tests', 'pending'],
      ),
    ]);
    const c = applyAgentTaskCalls(b, [
      plan(
        '3',
        ['Inspect math.js', 'completed'],
        ['Add debug logging behind DEBUG env var', 'completed'],
        ['Run node --test', 'in_progress'],
      ),
    ]);
    expect(c.map((i) => i.key)).toEqual(a.map((i) => i.key));
    // two steps replaced at once are new work: which is which is not known
    const d = applyAgentTaskCalls(c, [
      plan('4', ['Inspect math.js', 'completed'], ['Add metrics', 'pending'], ['Run the linter', 'pending']),
    ]);
    expect(d.slice(1).map((i) => i.key)).not.toContain(c[1]!.key);
    expect(d.slice(1).map((i) => i.key)).not.toContain(c[2]!.key);
  });

  it('takes a step still to do that is only like a finished one for new work; its own words reopen it', () => {
    const a = applyAgentTaskCalls([], [write('1', todo('Add mul() to calc.py', 'completed'))]);
    // "Add div() to calc.py" shares four of six words with the finished step: new work, a new item
    const b = applyAgentTaskCalls(a, [write('2', todo('Add div() to calc.py', 'in_progress'))]);
    expect(b.map((i) => [i.content, i.status])).toEqual([['Add div() to calc.py', 'in_progress']]);
    expect(b[0]!.key).not.toBe(a[0]!.key);
    // a finished step reworded and still finished keeps its key; the same words under way reopen it
    const c = applyAgentTaskCalls(a, [write('3', todo('Add mul() to calc.py module', 'completed'))]);
    expect(c[0]!.key).toBe(a[0]!.key);
    const d = applyAgentTaskCalls(a, [write('4', todo('add mul() to calc.py', 'in_progress'))]);
    expect(d[0]!.key).toBe(a[0]!.key);
  });

  it('follows TaskCreate / TaskUpdate, dependencies and deletion', () => {
    const list = applyAgentTaskCalls(
      [],
      [
        {
          tool: 'TaskCreate',
          input: { subject: 'Schema', description: 'd', activeForm: 'x' },
          result: { task: { id: '1', subject: 'Schema' } },
        },
        { tool: 'TaskCreate', input: { subject: 'API' }, result: 'Task #2 created successfully: API' },
        { tool: 'TaskCreate', input: { subject: 'Docs' } },
        { tool: 'TaskUpdate', input: { taskId: '2', addBlockedBy: ['1'] } },
        { tool: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } },
        { tool: 'TaskUpdate', input: { taskId: '3', status: 'deleted' } },
        { tool: 'TaskUpdate', input: { taskId: '9', status: 'completed' } },
      ],
    );
    expect(list.map((i) => [i.key, i.content, i.status, i.blocked_by])).toEqual([
      ['task:1', 'Schema', 'in_progress', []],
      ['task:2', 'API', 'pending', ['1']],
    ]);
  });

  it("reads Codex's update_plan with its arguments as a JSON string, and accepts unknown statuses", () => {
    const list = applyAgentTaskCalls(
      [],
      [
        {
          tool: 'update_plan',
          input: JSON.stringify({
            plan: [
              { step: 'Add failing tests', status: 'in_progress' },
              { step: 'Fix it', status: 'waiting_on_review' },
            ],
            explanation: 'why',
          }),
        },
        { tool: 'update_plan', input: 'not json' },
        { tool: 'TodoWrite', input: { todos: 'nope' } },
      ],
    );
    expect(list.map((i) => i.status)).toEqual(['in_progress', 'waiting_on_review']);
    expect(isAgentTaskTool('update_plan') && !isAgentTaskTool('Bash')).toBe(true);
    expect(createdTaskId([{ type: 'text', text: 'Task #12 created successfully: x' }])).toBe('12');
  });
});

describe('syncing the agent list into the task graph', () => {
  it('adds, starts, completes and skips tasks; the same calls again write nothing', () => {
    const d = workflow();
    const calls = [
      write(
        'c1',
        todo('Add failing test', 'in_progress'),
        todo('Fix the parser', 'pending'),
        todo('Update docs', 'pending'),
      ),
    ];
    expect(syncAgentTasks(d, 'claude-code', calls)).toEqual({
      added: ['T1', 'T2', 'T3'],
      started: ['T1'],
      completed: [],
      skipped: [],
      retitled: [],
      linked: [],
    });
    expect(d.state.status).toBe('in_progress');
    const r = syncAgentTasks(d, 'claude-code', [
      write('c2', todo('Add a failing test', 'completed'), todo('Fix the parser', 'in_progress')),
    ]);
    expect(r).toEqual({
      added: [],
      started: ['T2'],
      completed: ['T1'],
      skipped: ['T3'],
      retitled: ['T1'],
      linked: [],
    });
    expect(statuses(d)).toEqual({
      'Add a failing test': 'done',
      'Fix the parser': 'in_progress',
      'Update docs': 'skipped',
    });
    const events = d.events.length;
    expect(syncAgentTasks(d, 'claude-code', [...calls, write('c2', todo('x', 'pending'))])).toEqual({
      added: [],
      started: [],
      completed: [],
      skipped: [],
      retitled: [],
      linked: [],
    });
    expect(d.events.length).toBe(events);
    // Without ids, the same final list changes nothing either.
    const noIds = [write('', todo('Add a failing test', 'completed'), todo('Fix the parser', 'in_progress'))];
    syncAgentTasks(d, 'claude-code', noIds);
    expect(d.events.length).toBe(events);
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('follows a plan whose steps are split, merged and said in more words: no finished work is left skipped', () => {
    const d = workflow();
    let k = 0;
    const plan = (...steps: [string, string][]): AgentTaskCall => ({
      tool: 'update_plan',
      id: `p${(k += 1)}`,
      input: { plan: steps.map(([step, status]) => ({ step, status })) },
    });
    syncAgentTasks(d, 'codex', [
      plan(
        ['Create package layout', 'in_progress'],
        ['Implement subtract and multiply', 'pending'],
        ['Implement divide', 'pending'],
        ['Write tests', 'pending'],
      ),
    ]);
    // split: the first half keeps the task, the second is new work
    syncAgentTasks(d, 'codex', [
      plan(
        ['Create package layout', 'completed'],
        ['Implement subtract', 'in_progress'],
        ['Implement multiply', 'pending'],
        ['Implement divide', 'pending'],
        ['Write tests', 'pending'],
      ),
    ]);
    expect(d.state.tasks.map((t) => t.title)).toEqual([
      'Create package layout',
      'Implement subtract',
      'Implement divide',
      'Write tests',
      'Implement multiply',
    ]);
    // merged into one step, done; the tests step said in more words keeps its task
    const r = syncAgentTasks(d, 'codex', [
      plan(
        ['Create package layout', 'completed'],
        ['Implement subtract, multiply and divide', 'completed'],
        ['Write tests for all four operations', 'in_progress'],
      ),
    ]);
    expect(r.skipped).toEqual([]);
    expect(r.added).toEqual([]);
    expect(statuses(d)).toEqual({
      'Create package layout': 'done',
      'Implement subtract': 'done',
      'Implement subtract, multiply and divide': 'done',
      'Write tests for all four operations': 'in_progress',
      'Implement multiply': 'done',
    });
    const merged = d.events.filter(
      (e) => e.type === 'task.completed' && JSON.stringify(e.data).includes('merged'),
    );
    expect(merged.map((e) => e.task_id).sort()).toEqual(['T2', 'T5']);
    expect(JSON.stringify(merged[0]?.data)).toContain(
      'merged into T3 (\\"Implement subtract, multiply and divide\\")',
    );
    // merged into a step still under way: skipped, saying into which
    syncAgentTasks(d, 'codex', [plan(['Lint', 'pending'], ['Docs', 'pending'])]);
    const s = syncAgentTasks(d, 'codex', [plan(['Lint and Docs', 'in_progress'])]);
    expect(s.skipped).toHaveLength(1);
    const skip = d.events.filter((e) => e.type === 'task.skipped').at(-1);
    expect(JSON.stringify(skip?.data)).toContain('merged into');
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it("leaves an earlier session's unfinished tasks as they are when a new session's agent writes a list of its own", () => {
    const d = workflow();
    linkAgentSession(d, { name: 'claude-code', session_id: 's1' });
    syncAgentTasks(d, 'claude-code', [
      write(
        'a1',
        todo('Add mul() to calc.py', 'completed'),
        todo('Write tests for mul', 'in_progress'),
        todo('Update README', 'pending'),
      ),
    ]);
    // the user quits; the next conversation's agent starts its own list, for other work
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    const r = syncAgentTasks(d, 'claude-code', [write('b1', todo('Add div() to calc.py', 'in_progress'))]);
    expect(r).toEqual({
      added: ['T4'],
      started: ['T4'],
      completed: [],
      skipped: [],
      retitled: [],
      linked: [],
      // the session's first list: the open tasks it leaves out, for the agent to be told
      untied: [
        { id: 'T2', title: 'Write tests for mul', status: 'in_progress' },
        { id: 'T3', title: 'Update README', status: 'pending' },
      ],
    });
    expect(statuses(d)).toEqual({
      'Add mul() to calc.py': 'done',
      'Write tests for mul': 'in_progress',
      'Update README': 'pending',
      'Add div() to calc.py': 'in_progress',
    });
    // an item of the earlier work in the new list takes its task; leaving it out later in this session skips it
    const again = syncAgentTasks(d, 'claude-code', [
      write('b2', todo('Add div() to calc.py', 'completed'), todo('Update README', 'in_progress')),
    ]);
    expect(again).toEqual({
      added: [],
      started: ['T3'],
      completed: ['T4'],
      skipped: [],
      retitled: [],
      linked: [],
    });
    expect(
      syncAgentTasks(d, 'claude-code', [write('b3', todo('Add div() to calc.py', 'completed'))]),
    ).toEqual({
      added: [],
      started: [],
      completed: [],
      skipped: ['T3'],
      retitled: [],
      linked: [],
    });
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('gives a task handed over to the item that takes its words, from the item that took it in other words', () => {
    const d = workflow();
    linkAgentSession(d, { name: 'claude-code', session_id: 's1' });
    syncAgentTasks(d, 'claude-code', [
      write(
        'a1',
        todo('Add pytest tests for all four', 'in_progress'),
        todo('Run tests and commit', 'pending'),
      ),
    ]);
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    // the next session words them its own way (new tasks), then, told, puts the tasks in their own words
    syncAgentTasks(d, 'claude-code', [
      write(
        'b1',
        todo('Finish test_calc.py tests for all four operations', 'in_progress'),
        todo('Run the pytest suite and commit', 'pending'),
      ),
    ]);
    const r = syncAgentTasks(d, 'claude-code', [
      write(
        'b2',
        todo('Add pytest tests for all four', 'completed'),
        todo('Run tests and commit', 'in_progress'),
      ),
    ]);
    // "Run tests and commit" rewords "Run the pytest suite and commit" in place, but is T2's very words: T2's
    expect(r).toMatchObject({ completed: ['T1'], started: ['T2'], skipped: ['T3', 'T4'], retitled: [] });
    expect(statuses(d)).toEqual({
      'Add pytest tests for all four': 'done',
      'Run tests and commit': 'in_progress',
      'Finish test_calc.py tests for all four operations': 'skipped',
      'Run the pytest suite and commit': 'skipped',
    });
    expect(foldEvents(d.events).state).toEqual(d.state);
    // a finished task's words are not taken over: the item that rewords one in place keeps its own task
    const e = workflow();
    linkAgentSession(e, { name: 'claude-code', session_id: 's1' });
    syncAgentTasks(e, 'claude-code', [
      write('c1', todo('Fix the parser', 'completed'), todo('Run tests', 'completed')),
    ]);
    linkAgentSession(e, { name: 'claude-code', session_id: 's2' });
    syncAgentTasks(e, 'claude-code', [
      write('d1', todo('Fix the lexer', 'in_progress'), todo('Run the tests again', 'pending')),
    ]);
    const again = syncAgentTasks(e, 'claude-code', [
      write('d2', todo('Fix the lexer', 'completed'), todo('Run tests', 'completed')),
    ]);
    expect(again).toMatchObject({ completed: ['T3', 'T4'], skipped: [] });
    expect(e.state.tasks.map((t) => [t.id, t.status])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
      ['T3', 'done'],
      ['T4', 'done'],
    ]);
  });

  it("dates a task's start and end by the agent's call (a transcript read later), else by when it was recorded", () => {
    const d = workflow();
    const at = (c: AgentTaskCall, t: string | null) => ({ ...c, at: t });
    syncAgentTasks(d, 'claude-code', [
      at(
        write('c1', todo('Add failing test', 'in_progress'), todo('Update docs', 'pending')),
        '2026-01-19T04:31:05Z',
      ),
    ]);
    syncAgentTasks(d, 'claude-code', [
      at(write('c2', todo('Add failing test', 'completed')), '2026-01-19T04:33:01Z'),
    ]);
    const times = () => d.state.tasks.map((t) => [t.id, t.started_at, t.ended_at, t.status]);
    expect(times()).toEqual([
      ['T1', '2026-01-19T04:31:05.000Z', '2026-01-19T04:33:01.000Z', 'done'],
      ['T2', null, '2026-01-19T04:33:01.000Z', 'skipped'],
    ]);
    // a time that is not one: when it was recorded
    syncAgentTasks(d, 'claude-code', [at(write('c3', todo('Update docs', 'in_progress')), 'soon')]);
    expect(times()[1]).toEqual(['T2', ctx.now, null, 'in_progress']);
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('keeps the newest list: an older whole list read after it (its hook never came) is seen, not applied', () => {
    const d = workflow();
    const at = (c: AgentTaskCall, t: string | null) => ({ ...c, at: t });
    const older = at(write('a', todo('Write mul', 'in_progress')), '2026-01-19T04:31:05Z');
    const newer = at(
      write('b', todo('Write mul', 'completed'), todo('Add a test', 'in_progress')),
      '2026-01-19T04:32:00Z',
    );
    // the newer call's hook came; the transcript import replays both later, in the agent's order
    syncAgentTasks(d, 'claude-code', [newer]);
    const none = { added: [], started: [], completed: [], skipped: [], retitled: [], linked: [] };
    expect(syncAgentTasks(d, 'claude-code', [older])).toEqual(none);
    expect(syncAgentTasks(d, 'claude-code', [older, newer])).toEqual(none);
    expect(statuses(d)).toEqual({ 'Write mul': 'done', 'Add a test': 'in_progress' });
    expect(d.state.agent_tasks?.['claude-code']?.applied_calls).toEqual(['b', 'a']);
    // the other order applies both, as the agent made them: the same list
    const e = workflow();
    syncAgentTasks(e, 'claude-code', [older]);
    syncAgentTasks(e, 'claude-code', [newer]);
    expect(statuses(e)).toEqual(statuses(d));
    // a call of one task (TaskCreate) read late still adds its task; a call without a time is applied as it comes
    syncAgentTasks(d, 'claude-code', [
      at({ tool: 'TaskCreate', id: 'c', input: { subject: 'Write docs' } }, '2026-01-19T04:31:30Z'),
    ]);
    syncAgentTasks(d, 'claude-code', [
      write('w', todo('Write mul', 'completed'), todo('Add a test', 'completed')),
    ]);
    expect(statuses(d)).toEqual({ 'Write mul': 'done', 'Add a test': 'done', 'Write docs': 'skipped' });
    expect(d.state.agent_tasks?.['claude-code']?.synced_at).toBe('2026-01-19T04:32:00.000Z');
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it("keeps each task's newest change: an older TaskUpdate read after it (its hook never came) sets no status back", () => {
    const d = workflow();
    const call = (tool: string, id: string, input: Record<string, unknown>, t: string): AgentTaskCall => ({
      tool,
      id,
      input,
      at: `2026-01-19T04:3${t}Z`,
      ...(tool === 'TaskCreate' ? { result: { task: { id: String(input.n) } } } : {}),
    });
    const create = (n: number, subject: string, t: string) => call('TaskCreate', `c${n}`, { n, subject }, t);
    const update = (n: number, status: string, t: string, more: Record<string, unknown> = {}) =>
      call('TaskUpdate', `u${n}-${t}`, { taskId: String(n), status, ...more }, t);
    const item = (key: string) => d.state.agent_tasks?.['claude-code']?.items.find((it) => it.key === key);
    // the hooks that came
    syncAgentTasks(d, 'claude-code', [create(1, 'Write mul', '0:00'), create(2, 'Add a test', '0:10')]);
    syncAgentTasks(d, 'claude-code', [update(1, 'completed', '1:00'), update(2, 'in_progress', '1:10')]);
    // the import replays the older updates whose hooks never came, in the agent's order
    const none = { added: [], started: [], completed: [], skipped: [], retitled: [], linked: [] };
    expect(
      syncAgentTasks(d, 'claude-code', [
        update(1, 'in_progress', '0:30'),
        update(2, 'deleted', '0:40'),
        update(2, 'pending', '0:50', { addBlockedBy: ['1'] }),
      ]),
    ).toEqual({ ...none, linked: [{ task_id: 'T2', deps: ['T1'] }] });
    expect(statuses(d)).toEqual({ 'Write mul': 'done', 'Add a test': 'in_progress' });
    expect(item('task:1')?.status).toBe('completed');
    // an older update's links still hold: they add up, whatever the order
    expect(item('task:2')).toMatchObject({ status: 'in_progress', blocked_by: ['1'] });
    // a newer one applies
    syncAgentTasks(d, 'claude-code', [update(2, 'completed', '2:00')]);
    expect(statuses(d)).toEqual({ 'Write mul': 'done', 'Add a test': 'done' });
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('links tasks the agent made wait for others after adding them, never into a cycle; a restarted task drops its old note', () => {
    const d = workflow();
    const create = (id: string, subject: string): AgentTaskCall => ({
      tool: 'TaskCreate',
      id,
      input: { subject, description: '' },
      result: { task: { id: id.slice(1) } },
    });
    const update = (id: string, input: Record<string, unknown>): AgentTaskCall => ({
      tool: 'TaskUpdate',
      id,
      input,
    });
    syncAgentTasks(d, 'claude-code', [create('c10', 'Build the API'), create('c11', 'Deploy the API')]);
    expect(d.state.tasks.map((t) => [t.id, t.deps])).toEqual([
      ['T1', []],
      ['T2', []],
    ]);
    const r = syncAgentTasks(d, 'claude-code', [update('u1', { taskId: '11', addBlockedBy: ['10'] })]);
    expect(r.linked).toEqual([{ task_id: 'T2', deps: ['T1'] }]);
    expect(d.state.tasks.find((t) => t.id === 'T2')?.deps).toEqual(['T1']);
    // the other way round would close a cycle: not linked, and said so by that call only
    const refused = syncAgentTasks(d, 'claude-code', [update('u2', { taskId: '10', addBlockedBy: ['11'] })]);
    expect(refused.linked).toEqual([]);
    expect(refused.not_linked).toEqual([{ task_id: 'T1', deps: ['T2'] }]);
    expect(notLinkedPhrase(refused.not_linked![0]!)).toBe(
      "T1 not linked to T2: the agent's list makes them wait for each other (a cycle)",
    );
    expect(d.state.tasks.find((t) => t.id === 'T1')?.deps).toEqual([]);
    expect(
      syncAgentTasks(d, 'claude-code', [update('u2b', { taskId: '11', status: 'in_progress' })]).not_linked,
    ).toBeUndefined();
    // removed from the list (skipped with a note), then taken up again: the note goes
    syncAgentTasks(d, 'claude-code', [update('u3', { taskId: '10', status: 'deleted' })]);
    expect(d.state.tasks.find((t) => t.id === 'T1')?.note).toMatch(/removed from/);
    d.emit({ type: 'task.started', task_id: 'T1', data: {} });
    expect(d.state.tasks.find((t) => t.id === 'T1')?.note).toBeNull();
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('maps items to existing tasks by their words, never to a finished task for an unfinished item', () => {
    const d = workflow([
      { id: 'A', title: 'Implement the REST route' },
      { id: 'B', title: 'Run the tests' },
    ]);
    d.emit({ type: 'workflow.started', data: {} });
    d.emit({ type: 'task.completed', task_id: 'B', data: { summary: null } });
    const r = syncAgentTasks(d, 'codex', [
      {
        tool: 'update_plan',
        id: 'p1',
        input: {
          plan: [
            { step: 'Implement REST route', status: 'in_progress' },
            { step: 'Run tests', status: 'pending' },
          ],
        },
      },
    ]);
    expect(r).toEqual({
      added: ['T1'],
      started: ['A'],
      completed: [],
      skipped: [],
      retitled: [],
      linked: [],
    });
    expect(d.state.agent_tasks?.codex?.items.map((i) => i.task_id)).toEqual(['A', 'T1']);
  });

  it("gives a reworded item's words to the task that bore its old ones, not to a task titled otherwise", () => {
    const d = workflow([{ id: 'A', title: 'Implement the REST route' }]);
    const plan = (id: string, ...steps: string[]) => ({
      tool: 'update_plan',
      id,
      input: { plan: steps.map((step) => ({ step, status: 'pending' })) },
    });
    syncAgentTasks(d, 'codex', [plan('p1', 'Implement REST route', 'Document the flag', 'Tag the release')]);
    // "Document the flag" -> "Document the --dry-run flag in README", in place in a list of the same length
    const r = syncAgentTasks(d, 'codex', [
      plan(
        'p2',
        'Implement the REST route for users',
        'Document the --dry-run flag in README',
        'Tag the release',
      ),
    ]);
    expect(r.retitled).toEqual(['T1']);
    expect(d.state.tasks.map((t) => t.title)).toEqual([
      'Implement the REST route',
      'Document the --dry-run flag in README',
      'Tag the release',
    ]);
    expect(d.events.filter((e) => e.type === 'task.retitled')).toHaveLength(1);
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('adds a task after another, with a dependency, and refuses bad ones', () => {
    const d = workflow([
      { id: 'A', title: 'a' },
      { id: 'B', title: 'b' },
    ]);
    addTask(d, { id: 'C', title: 'c', deps: ['A'], after: 'A' });
    expect(d.state.tasks.map((t) => t.id)).toEqual(['A', 'C', 'B']);
    expect(() => addTask(d, { id: 'C', title: 'again' })).toThrow(/already exists/);
    expect(() => addTask(d, { id: 'D', title: 'd', deps: ['Z'] })).toThrow(/unknown task Z/);
    expect(() => addTask(d, { id: 'D', title: 'd', after: 'Z' })).toThrow(/not in workflow/);
    expect(() => addTask(d, { id: 'bad id', title: 'd' })).toThrow(/task ids are/);
  });
});
