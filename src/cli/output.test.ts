import { describe, expect, it } from 'vitest';
import { thousands } from './output.js';

describe('thousands', () => {
  it('groups as en-US does, fractions to three places, and says ? for an unknown count', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, 4_106_362, -1234, -999, 0.5, 1234.5678, 2 ** 40])
      expect(thousands(n), String(n)).toBe(n.toLocaleString('en-US'));
    expect(thousands(null)).toBe('?');
    expect(thousands(undefined)).toBe('?');
  });
});
