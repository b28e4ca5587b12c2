import { describe, expect, it } from 'vitest';
import { listedTasks, tasksOfList } from './plan-tasks.js';

const titles = (md: string) => listedTasks(md).map((t) => t.title);

describe("a plan's list read as tasks", () => {
  it('takes numbered, dash, star and plus items in order, the outermost only', () => {
    expect(titles('1. Cart model\n2) Price rules\n')).toEqual(['Cart model', 'Price rules']);
    expect(titles('- one\n* two\n+ three')).toEqual(['one', 'two', 'three']);
    // what is indented under an item is its description, sub-items included
    expect(listedTasks('1. Cart model\n   - in cents\n   - no floats\n\n   Keep it small.\n2. Docs')).toEqual(
      [
        { title: 'Cart model', description: '- in cents\n- no floats\n\nKeep it small.', done: false },
        { title: 'Docs', description: '', done: false },
      ],
    );
  });

  it('reads a checklist, a checked item done', () => {
    expect(listedTasks('- [x] read the code\n- [ ] write the fix\n- [X] ship').map((t) => t.done)).toEqual([
      true,
      false,
      true,
    ]);
    expect(titles('- [ ] write the fix')).toEqual(['write the fix']);
  });

  it('passes over code blocks, rules and prose, and finds no list in prose alone', () => {
    expect(titles('# Plan\n\n```sh\n- not a task\n1. nor this\n```\n\n* * *\n\n- the task\n')).toEqual([
      'the task',
    ]);
    expect(listedTasks('# Plan\n\nWe rewrite the checkout, *carefully*.\n')).toEqual([]);
    expect(tasksOfList('no list here')).toBeNull();
  });

  it('makes them T1, T2, ... with the checked ones named done', () => {
    expect(tasksOfList('- [x] a\n- [ ] b')).toEqual({
      tasks: [
        { id: 'T1', title: 'a', description: '', deps: [], lane: 0 },
        { id: 'T2', title: 'b', description: '', deps: [], lane: 0 },
      ],
      done: ['T1'],
    });
  });
});
