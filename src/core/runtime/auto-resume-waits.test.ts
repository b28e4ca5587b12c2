import { describe, expect, it } from 'vitest';
import { AutoResumeWaits } from './auto-resume-waits.js';
import { RETRY_WAITS } from './retry-wait.js';

describe('the --auto-resume waits of one run', () => {
  it('grow while nothing is done between, and run out after RETRY_WAITS', () => {
    const w = new AutoResumeWaits(1000);
    const made: number[] = [];
    for (let ms = w.nextBackoff(); ms !== null; ms = w.nextBackoff()) {
      made.push(ms);
      w.waited(ms, true);
    }
    expect(made).toEqual([1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30, 30].map((s) => s * 1000));
    expect(w.waits).toBe(RETRY_WAITS);
    expect(w.waitedMs).toBe(241_000);
  });

  it('a wait for a reset is counted but does not grow the next one; a task done starts them again', () => {
    const w = new AutoResumeWaits(1000);
    w.waited(3_600_000, false);
    expect(w.nextBackoff()).toBe(1000);
    w.waited(1000, true);
    expect(w.nextBackoff()).toBe(2000);
    w.taskDone();
    expect({ waits: w.waits, waitedMs: w.waitedMs, next: w.nextBackoff() }).toEqual({
      waits: 0,
      waitedMs: 0,
      next: 1000,
    });
  });

  it('going on at once after a reset already passed is no wait: the first growing wait after it is the first', () => {
    const w = new AutoResumeWaits(1000);
    expect(w.again).toBe(false);
    w.wentOnAtOnce();
    // the limit back now is one met again (a growing wait), numbered from 0 ("wait 1 of 12")
    expect({ again: w.again, waits: w.waits, next: w.nextBackoff() }).toEqual({
      again: true,
      waits: 0,
      next: 1000,
    });
    w.waited(1000, true);
    expect(w.waits).toBe(1);
    w.taskDone();
    expect(w.again).toBe(false);
  });

  it('the sessions the waits started are not counted against --max-sessions, even after a task done', () => {
    const w = new AutoResumeWaits(1000);
    expect(w.mayStartSession(2, 2)).toBe(false);
    w.waited(1000, true);
    w.taskDone();
    // three sessions ran, one of them after a wait: two count (one that went on at once is free too)
    expect(w.mayStartSession(3, 2)).toBe(false);
    expect(w.mayStartSession(2, 2)).toBe(true);
    expect(w.mayStartSession(99, null)).toBe(true);
    w.wentOnAtOnce();
    expect(w.mayStartSession(3, 2)).toBe(true);
  });
});
