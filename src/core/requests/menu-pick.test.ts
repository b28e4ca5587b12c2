import { describe, expect, it } from 'vitest';
import { itemSaid, pickedItem, pickedLabel } from './menu-pick.js';

const table = [
  '**Pending Todos:**',
  '',
  '| # | Title | Area | Age |',
  '|---|-------|------|-----|',
  '| 1 | Offload large file encryption to Web Worker | ui | 14d ago |',
  '| 5 | Fix FUSE rename on SMB backend | desktop | 3d ago |',
  '| 6 | Add auto-update to desktop app | desktop | 1d ago |',
  '',
  'Reply with a number to view details, or `q` to exit.',
].join('\n');

const options = [
  'Two ways to go:',
  '',
  '1. **Patch the parser** so it skips the BOM',
  '2. **Strip the BOM on read**, in the loader',
  '',
  'Or, for the build:',
  '',
  'A) keep webpack',
  'B) move to vite',
].join('\n');

/** The item a request names, as the Goal says it (null: none). */
const said = (request: string, message: string | null) => {
  const named = pickedItem(request, message);
  return named ? itemSaid(named) : null;
};

describe("a request that names an item of the list the agent's message before it offered", () => {
  it('reads the label the user names it by: a number, a letter, "option 2", an ordinal', () => {
    expect(pickedLabel('5 seems like a great one to tackle')).toBe('5');
    expect(pickedLabel("let's do 2")).toBe('2');
    expect(pickedLabel('ok, go with B')).toBe('b');
    expect(pickedLabel('B please')).toBe('b');
    expect(pickedLabel('2.')).toBe('2');
    expect(pickedLabel('option 3 sounds right, but keep the old flag')).toBe('3');
    expect(pickedLabel('option 1 is not acceptable: we never control the claude process')).toBe('1');
    expect(pickedLabel('#4')).toBe('4');
    expect(pickedLabel('the second one')).toBe('2');
    expect(pickedLabel("let's try the last option")).toBe('last');
    expect(pickedLabel('d')).toBe('d');
    expect(pickedLabel("I'd go with B")).toBe('b');
    expect(pickedLabel('I pick 3')).toBe('3');
    expect(pickedLabel('option two')).toBe('2');
    expect(pickedLabel('approach B looks cleaner')).toBe('b');
    expect(pickedLabel("let's go with the first")).toBe('1');
    expect(pickedLabel('second')).toBe('2');
    expect(pickedLabel("let's go with the 2nd one")).toBe('2');
    expect(pickedLabel('1st')).toBe('1');
    expect(pickedLabel('3\uFE0F\u20E3 please')).toBe('3');
    expect(pickedLabel('\u2461')).toBe('2');
  });

  it('reads none in a number that counts something, an issue number, several labels, a long request', () => {
    expect(pickedLabel('3 tests fail on main')).toBeNull();
    expect(pickedLabel('set the timeout to 30 seconds')).toBeNull();
    expect(pickedLabel('a better name would be parseBom')).toBeNull();
    expect(pickedLabel('merge PR #1372 once green')).toBeNull();
    expect(pickedLabel('fix #3')).toBeNull();
    expect(pickedLabel('look at issue #12')).toBeNull();
    expect(pickedLabel('#1 priority is speed')).toBeNull();
    expect(pickedLabel('e.g. the loader')).toBeNull();
    expect(pickedLabel('1 and 2')).toBeNull();
    expect(pickedLabel('pls do 2 and 3')).toBeNull();
    expect(pickedLabel('2, 3 and 4')).toBeNull();
    expect(pickedLabel('v2 please')).toBeNull();
    expect(pickedLabel('1.5')).toBeNull();
    expect(pickedLabel('first, read the logs')).toBeNull();
    expect(pickedLabel('I think the second test is flaky')).toBeNull();
    expect(pickedLabel('do one thing at a time')).toBeNull();
    expect(pickedLabel(`2 ${'and then a long explanation of what to do '.repeat(3)}`)).toBeNull();
    expect(pickedLabel('2\nand more')).toBeNull();
    expect(pickedLabel('the 2nd test is flaky')).toBeNull();
    expect(pickedLabel('ship it on the 21st')).toBeNull();
  });

  it("says the item of the agent's table or list, its columns after its words", () => {
    expect(said('5 seems like a great one to tackle', table)).toBe(
      "item 5 of the agent's list before it: Fix FUSE rename on SMB backend | desktop | 3d ago",
    );
    expect(pickedItem('go with 2', options)).toEqual({
      label: '2',
      item: 'Strip the BOM on read, in the loader',
    });
    expect(pickedItem('B please', options)).toEqual({ label: 'B', item: 'move to vite' });
    expect(pickedItem('the last one', table)).toEqual({
      label: '6',
      item: 'Add auto-update to desktop app | desktop | 1d ago',
    });
    // the last of a message whose last list is lettered
    expect(pickedItem('the last one', options)).toEqual({ label: 'B', item: 'move to vite' });
  });

  it("names a menu's key in brackets, whichever letter it is", () => {
    const menu = [
      'Would you like us to:',
      '- **[d] Done** - Spec complete, proceed to implementation',
      '- **[review-specific]** Review any specific section one more time',
      '- **[exit]** End party mode',
    ].join('\n');
    expect(pickedItem('d', menu)).toEqual({
      label: 'd',
      item: 'Done - Spec complete, proceed to implementation',
    });
    expect(pickedItem('p', menu)).toBeNull();
  });

  it('reads the outer list, not a nested one, nor a code block or a dialogue, and Windows line ends', () => {
    const nested = '1. Fix the loader\n   1. read the file\n   2. strip the BOM\n2. Fix the parser';
    expect(pickedItem('1', nested)).toEqual({ label: '1', item: 'Fix the loader' });
    const code = 'Run:\n```\n1. npm ci\n2. npm test\n```\nThen either:\n1) keep it\n2) drop it';
    expect(pickedItem('2', code)).toEqual({ label: '2', item: 'drop it' });
    expect(pickedItem('B', 'Q: why?\nA: because\nB: okay')).toBeNull();
    expect(pickedItem('2', '1. foo\r\n2. bar\r\n')).toEqual({ label: '2', item: 'bar' });
  });

  it('names nothing when the message before holds no such item, or no list of two', () => {
    expect(pickedItem('3', table)).toBeNull();
    expect(pickedItem('go with C', options)).toBeNull();
    expect(pickedItem('1', '1. the only step')).toBeNull();
    expect(pickedItem('2', null)).toBeNull();
    expect(pickedItem('fix the parser', options)).toBeNull();
  });

  it('of two lists with the label, means the last: the options come at the end of a message', () => {
    const twice = `Done so far:\n1. read the code\n2. ran the tests\n\nNext, either:\n1. fix the loader\n2. fix the parser`;
    expect(pickedItem('2', twice)).toEqual({ label: '2', item: 'fix the parser' });
  });

  it('cuts a long item to 160 characters', () => {
    const item = pickedItem('1', `1. ${'word '.repeat(60)}\n2. short`)?.item ?? '';
    expect(item.length).toBeLessThanOrEqual(160);
    expect(item.endsWith('\u2026')).toBe(true);
  });
});
