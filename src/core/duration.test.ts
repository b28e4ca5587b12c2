import { describe, expect, it } from 'vitest';
import { formatAgo, formatSpan, parseDuration } from './duration.js';

describe('durations', () => {
  it('reads the written forms and refuses anything else', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('250')).toBe(250);
    expect(() => parseDuration('soon', 'timeout')).toThrow('timeout "soon" is not a duration');
  });

  it('shows spans in minutes and seconds, past an hour in hours and minutes', () => {
    expect(formatSpan(5_400)).toBe('0m05s');
    expect(formatSpan(3_725_000)).toBe('1h02m');
    expect(formatSpan(-10)).toBe('0m00s');
  });

  it('says "just now" rather than "0m00s ago"', () => {
    expect(formatAgo(400)).toBe('just now');
    expect(formatAgo(65_000)).toBe('1m05s ago');
  });
});
