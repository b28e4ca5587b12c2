import { expect, it } from 'vitest';
import { counted } from './counted.js';

it('says a count with its noun, singular for one only', () => {
  expect([0, 1, 2].map((n) => counted(n, 'error'))).toEqual(['0 errors', '1 error', '2 errors']);
  expect(counted(1, 'entry', 'entries')).toBe('1 entry');
  expect(counted(3, 'entry', 'entries')).toBe('3 entries');
});
