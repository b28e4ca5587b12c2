import { describe, expect, it } from 'vitest';
import { persistsWords, RETRY_WAITS, retryWait, retryWaitWords } from './retry-wait.js';

describe('the waits of --auto-resume for a limit back with nothing done since', () => {
  it('double from the first up to 30 times it: 1, 2, 4, 8, 16, then 30 minutes', () => {
    const minutes = Array.from({ length: RETRY_WAITS }, (_, n) => retryWait(n, 60_000) / 60_000);
    expect(minutes).toEqual([1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30, 30]);
    // about four hours in all before the run gives up
    expect(minutes.reduce((a, b) => a + b)).toBe(241);
  });

  it('are said with their count, and a limit that outlasts them as such', () => {
    expect(retryWaitWords(1, 120_000)).toBe('waiting 2m00s before going on (wait 2 of 12, --auto-resume)');
    expect(persistsWords('the usage limit', 12, 241 * 60_000)).toBe(
      'the usage limit persists after 12 waits (4h01m in all) with nothing done between',
    );
  });
});
