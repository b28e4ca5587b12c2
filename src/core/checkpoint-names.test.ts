import { describe, expect, it } from 'vitest';
import { bareCheckpointName, checkpointAnswersTo, findCheckpoint } from './checkpoint-names.js';
import { checkpointName } from './commands/snapshots.js';

const cp = (name: string, number: number) => ({
  name,
  number,
  snapshot_id: `snap-${number}`,
  commit: null,
  branch: null,
  created_at: '2026-01-01T00:00:00.000Z',
  seq: number,
});

describe('checkpoint names (one parser for every layer)', () => {
  it('a stored name is cp-NN-<slug>; its bare name is what was asked for', () => {
    expect(checkpointName(0, 'API design')).toBe('cp-01-api-design');
    expect(checkpointName(11, 'cp-03-api')).toBe('cp-12-api');
    expect(bareCheckpointName('cp-03-architecture')).toBe('architecture');
    expect(bareCheckpointName('cp-x-architecture')).toBe('cp-x-architecture');
    expect(bareCheckpointName('architecture')).toBe('architecture');
    expect(checkpointAnswersTo('cp-03-api', 'api')).toBe(true);
    expect(checkpointAnswersTo('cp-03-api', 'cp-03-api')).toBe(true);
    expect(checkpointAnswersTo('cp-03-api', 'cp-04-api')).toBe(false);
    expect(checkpointAnswersTo('cp-03-api-v2', 'api')).toBe(false);
  });

  it('finds a checkpoint by either name, the latest without one, and says which there are otherwise', () => {
    const s = { id: 'wf-1', checkpoints: [cp('cp-01-api', 1), cp('cp-02-ui', 2)] };
    expect(findCheckpoint(s, 'api').number).toBe(1);
    expect(findCheckpoint(s, 'cp-02-ui').number).toBe(2);
    expect(findCheckpoint(s, null).number).toBe(2);
    expect(() => findCheckpoint(s, 'db')).toThrow(
      'no checkpoint db in workflow wf-1 (have: cp-01-api, cp-02-ui)',
    );
    expect(() => findCheckpoint({ id: 'wf-2', checkpoints: [] }, null)).toThrow(
      'workflow wf-2 has no checkpoint yet',
    );
  });
});
