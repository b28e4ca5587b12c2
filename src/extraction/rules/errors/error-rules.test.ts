import { describe, expect, it } from 'vitest';
import { bash, say } from '../../../../test/helpers/tool-results.js';
import { findErrors } from './error-rules.js';

describe('findErrors: what the agent was doing', () => {
  it('is what it said in the same turn, never the last message of a turn before', () => {
    const entries = [
      say('Add subtract with a test', 'user'),
      say('Subtract is in and committed (tests pass: 2 passed). Next I will add multiply.'),
      say('now run the whole suite', 'user'),
      ...bash('node --test test/', 1, "not ok 3 - pow\n  error: '6 == 7'"),
    ];
    const [error] = findErrors(entries, null);
    expect(error).toMatchObject({ error_type: 'test_failure', context: null });
    // said in the failing turn: that is what it was doing
    const said = [
      ...entries.slice(0, 3),
      say('Running the whole suite before the README.'),
      ...entries.slice(3),
    ];
    expect(findErrors(said, null)[0]?.context).toBe('Running the whole suite before the README.');
  });
});
