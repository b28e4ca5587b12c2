import { describe, expect, it } from 'vitest';
import { errorFirst } from './error-first.js';

describe("an agent's standard error, its error first", () => {
  it('puts the line that names the error before the location and the code that came first', () => {
    const node = [
      '[eval]:1',
      "throw new Error('disk full')",
      '^',
      '',
      'Error: disk full',
      '    at [eval]:1:7',
    ].join('\n');
    expect(errorFirst(node)?.split('\n')[0]).toBe('Error: disk full');
    expect(errorFirst(node)).toContain('[eval]:1');
    expect(errorFirst('thread main:\npanic: index out of range [3]')?.split('\n')[0]).toBe(
      'panic: index out of range [3]',
    );
  });

  it('leaves standard error as it is when it opens with the error, or names none', () => {
    expect(errorFirst('TypeError: x is undefined\n    at a.js:1')).toBe(
      'TypeError: x is undefined\n    at a.js:1',
    );
    expect(errorFirst('killed')).toBe('killed');
    expect(errorFirst(null)).toBeNull();
  });
});
