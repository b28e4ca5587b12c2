import { describe, expect, it } from 'vitest';
import { bareCheckpointName, checkpointAnswersTo } from './checkpoint-names.js';
import { checkpointName } from './commands/snapshots.js';

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
});
