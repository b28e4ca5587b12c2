import { describe, expect, it } from 'vitest';
import { nextTaskId } from './add-task.js';

describe('nextTaskId', () => {
  it('is T1 in an empty plan, else one more than the highest T<n>, whatever other ids the plan holds', () => {
    expect(nextTaskId([])).toBe('T1');
    expect(nextTaskId(['A', 'B'])).toBe('T1');
    expect(nextTaskId(['T1', 'T9', 'T3', 'X12'])).toBe('T10');
    // only T and digits count: t2, T2a and T-3 are ids of their own, not numbers of the series
    expect(nextTaskId(['t2', 'T2a', 'T-3'])).toBe('T1');
  });
});
