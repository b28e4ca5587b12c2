import { describe, expect, it } from 'vitest';
import { pickedItem, pickedLabel } from './menu-pick.js';

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

describe('a request that picks an item of the list the agent offered before it', () => {
  it('reads the label the user picks by: a number, a letter, "option 2", an ordinal', () => {
    expect(pickedLabel('5 seems like a great one to tackle')).toBe('5');
    expect(pickedLabel("let's do 2")).toBe('2');
    expect(pickedLabel('ok, go with B')).toBe('b');
    expect(pickedLabel('B please')).toBe('b');
    expect(pickedLabel('2.')).toBe('2');
    expect(pickedLabel('option 3 sounds right, but keep the old flag')).toBe('3');
    expect(pickedLabel('#4')).toBe('4');
    expect(pickedLabel('the second one')).toBe('2');
    expect(pickedLabel("let's try the last option")).toBe('last');
  });

  it('reads no pick in a number that counts something, a long request or one of many lines', () => {
    expect(pickedLabel('3 tests fail on main')).toBeNull();
    expect(pickedLabel('set the timeout to 30 seconds')).toBeNull();
    expect(pickedLabel('a better name would be parseBom')).toBeNull();
    expect(pickedLabel('merge PR #1372 once green')).toBeNull();
    expect(pickedLabel('e.g. the loader')).toBeNull();
    expect(pickedLabel(`2 ${'and then a long explanation of what to do '.repeat(3)}`)).toBeNull();
    expect(pickedLabel('2\nand more')).toBeNull();
  });

  it("names the item of the agent's table or list, its columns after its words", () => {
    expect(pickedItem('5 seems like a great one to tackle', table)).toBe(
      '5: Fix FUSE rename on SMB backend | desktop | 3d ago',
    );
    expect(pickedItem('go with 2', options)).toBe('2: Strip the BOM on read, in the loader');
    expect(pickedItem('B please', options)).toBe('B: move to vite');
    expect(pickedItem('the last one', table)).toBe('6: Add auto-update to desktop app | desktop | 1d ago');
  });

  it("names a menu's key in brackets, whichever letter it is", () => {
    const menu = [
      'Would you like us to:',
      '- **[d] Done** - Spec complete, proceed to implementation',
      '- **[review-specific]** Review any specific section one more time',
      '- **[exit]** End party mode',
    ].join('\n');
    expect(pickedItem('d', menu)).toBe('D: Done - Spec complete, proceed to implementation');
    expect(pickedItem('p', menu)).toBeNull();
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
    expect(pickedItem('2', twice)).toBe('2: fix the parser');
  });

  it('cuts a long item to 160 characters', () => {
    const long = `1. ${'word '.repeat(60)}\n2. short`;
    const item = pickedItem('1', long) ?? '';
    expect(item.length).toBeLessThanOrEqual(3 + 160);
    expect(item.endsWith('\u2026')).toBe(true);
  });
});
