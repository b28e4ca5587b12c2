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
        {
          title: 'Cart model',
          description: '- in cents\n- no floats\n\nKeep it small.',
          done: false,
          list: 0,
          anyOrder: false,
        },
        { title: 'Docs', description: '', done: false, list: 0, anyOrder: false },
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

describe("a plan's list read as an order", () => {
  const deps = (md: string) => tasksOfList(md)?.tasks.map((t) => [t.id, t.deps]);

  it("makes each item wait for the one before it, numbered or not; sub-items stay their parent's", () => {
    const chain = [
      ['T1', []],
      ['T2', ['T1']],
      ['T3', ['T2']],
    ];
    expect(deps('1. Schema\n2. API\n3. Docs')).toEqual(chain);
    expect(deps('- Schema\n- API\n\n- Docs\n')).toEqual(chain);
    // what is nested under an item is part of it: no task of its own, nothing in the order
    expect(deps('1. Schema\n   1. users table\n   2. sessions table\n2. API\n   - login\n3. Docs')).toEqual(
      chain,
    );
    // lists under headings go on in the order they are written
    expect(deps('## Backend\n1. Schema\n2. API\n\n## Frontend\n1. Docs')).toEqual(chain);
  });

  it('waits for the nearest open item before it: a checked item waits for nothing and holds nothing up', () => {
    expect(deps('- [x] read\n- [ ] fix\n- [x] ship a draft\n- [ ] ship')).toEqual([
      ['T1', []],
      ['T2', []],
      ['T3', []],
      ['T4', ['T2']],
    ]);
  });

  it('leaves the items side by side when the heading or the line above the list says so, the next list after all', () => {
    const md = (intro: string) => `${intro}\n- fix the header\n- fix the footer\n\nThen:\n1. release`;
    const free = [
      ['T1', []],
      ['T2', []],
      ['T3', ['T1', 'T2']],
    ];
    expect(deps(md('In any order:'))).toEqual(free);
    expect(deps(md('## Independent fixes\n\nSmall ones:'))).toEqual(free);
    expect(deps(md('These can go in parallel.'))).toEqual(free);
    expect(deps(md('In no particular order:'))).toEqual(free);
    // "independent of" says something else; an earlier paragraph is not what introduces the list
    expect(deps(md('Make the cart independent of the prices:'))?.[1]).toEqual(['T2', ['T1']]);
    expect(deps(md('Any order would do.\n\nThe steps:'))?.[1]).toEqual(['T2', ['T1']]);
    // only that list: the one after it, introduced otherwise, is an order again
    expect(deps('In any order:\n- a\n- b\n\nThen:\n- c\n- d')).toEqual([
      ['T1', []],
      ['T2', []],
      ['T3', ['T1', 'T2']],
      ['T4', ['T3']],
    ]);
  });
});
