import { describe, expect, it } from 'vitest';
import { checkpointDue, checkpointTooSoon } from './checkpoint-policy.js';
import type { WorkflowState } from './schemas/state.js';

const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 12, min)).toISOString();
const state = (checkpointAtMin: number | null, workSeq: number) =>
  ({
    work_seq: workSeq,
    checkpoints:
      checkpointAtMin === null
        ? []
        : [
            {
              name: 'cp-01-x',
              number: 1,
              snapshot_id: 's',
              commit: null,
              branch: null,
              created_at: at(checkpointAtMin),
              seq: 5,
            },
          ],
  }) as unknown as WorkflowState;
const interval = 10 * 60_000;

describe('the checkpoint policy', () => {
  it('is too soon within the interval of the last checkpoint, whatever the work, without reading git', () => {
    expect(checkpointTooSoon(state(0, 9), at(3), interval)).toEqual({
      due: false,
      reason: 'tasks moved or side effects recorded, but the last checkpoint is 3 min old (interval 10 min)',
    });
    expect(checkpointTooSoon(state(0, 5), at(3), interval)?.reason).toBe(
      'the last checkpoint is 3 min old (interval 10 min)',
    );
  });

  it('leaves the decision to the work when there is no checkpoint yet or the interval passed', () => {
    expect(checkpointTooSoon(state(null, 9), at(3), interval)).toBeNull();
    expect(checkpointTooSoon(state(0, 9), at(12), interval)).toBeNull();
    expect(
      checkpointDue(state(0, 9), { now: at(12), intervalMs: interval, git: null, lastGit: null }),
    ).toEqual({
      due: true,
      reason: 'tasks moved or side effects recorded',
    });
    expect(
      checkpointDue(state(0, 5), { now: at(12), intervalMs: interval, git: null, lastGit: null }),
    ).toEqual({
      due: false,
      reason: 'no work since the last checkpoint',
    });
    expect(
      checkpointDue(state(0, 9), { now: at(3), intervalMs: interval, git: null, lastGit: null }),
    ).toEqual(checkpointTooSoon(state(0, 9), at(3), interval));
  });
});
