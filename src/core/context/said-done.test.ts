import { describe, expect, it } from 'vitest';
import { probablyDoneTasks, saidDone } from './said-done.js';
import type { Summary } from '../schemas/records.js';

describe('saidDone', () => {
  it('finds the line of a last message that says a task is over in its words', () => {
    // a real Codex last message (codemie-code's rollout), its plan's last step left in progress
    const codex =
      'Implemented the default context compaction setting as `threshold: 0.9`.\n\nChanged:\n- [codemie-code.plugin.ts](src/a.ts:99): adds `compaction`\n\nVerification passed:\n\n```bash\nnpm run build\n```';
    expect(saidDone('Run focused verification', codex)).toBe('Verification passed');
    expect(
      saidDone(
        'Add retries to the HTTP client',
        'Added retries to the HTTP client: 3 attempts with exponential backoff. Tests pass.',
      ),
    ).toBe('Added retries to the HTTP client: 3 attempts with exponential backoff.');
  });

  it('is null when the message does not say that task is over', () => {
    expect(saidDone('Run focused verification', 'Verification still fails on the build step.')).toBeNull();
    expect(saidDone('Run focused verification', 'Is verification passed?')).toBeNull();
    expect(saidDone('Add retries to the HTTP client', 'Tests pass.')).toBeNull();
    expect(saidDone('Write the migration guide', 'Next I will write the migration guide.')).toBeNull();
    expect(saidDone('Run it', 'Done.')).toBeNull();
    expect(saidDone('Write the LICENSE file', 'The LICENSE file is half written.')).toBeNull();
    // the same verb, or some of the words, of other work
    expect(saidDone('Implement caching for the API', 'Implemented the API rate limiter.')).toBeNull();
    expect(saidDone('Fix the login redirect bug', 'Fixed the typo in the login page title.')).toBeNull();
    expect(saidDone('Write tests for the parser and the lexer', 'Added tests for the parser.')).toBeNull();
    expect(saidDone('Write the test', 'Tests written.')).toBe('Tests written.');
    // more of it announced in the same breath: a step of the task done, not the task
    expect(
      saidDone(
        'Add divide with zero check',
        "divide is written; now I'll add its tests to test.js, including the zero case, and run the suite.",
      ),
    ).toBeNull();
    expect(
      saidDone(
        'Add divide with zero check',
        'The divide with its zero check is written; let me run the tests.',
      ),
    ).toBeNull();
    expect(
      saidDone('Add divide with zero check', 'The divide with its zero check is written and tested.'),
    ).toBe('The divide with its zero check is written and tested.');
    expect(saidDone('Write the LICENSE file', 'The LICENSE file is written.')).toBe(
      'The LICENSE file is written.',
    );
  });
});

describe('probablyDoneTasks', () => {
  const task = { id: 'T3', title: 'Run focused verification', started_at: '2026-05-11T11:00:00Z' };
  const summary = (kind: Summary['kind'], text: string, timestamp: string): Summary => ({
    id: `s-${kind}`,
    kind,
    text,
    timestamp,
    source: null,
    session_number: 1,
  });
  const last: Summary = {
    ...summary('last_message', 'Verification passed.', '2026-05-11T11:05:00Z'),
    turn_ended: true,
  };
  const said = (message: Summary | null, more: object = {}) => ({
    summaries: { compaction: null, last_message: message, ...more },
  });

  it('names a task in progress that the message its turn ended on, said after the task started, says is over', () => {
    expect(probablyDoneTasks(said(last), [{ ...task, status: 'in_progress' }])).toEqual([
      { id: 'T3', title: 'Run focused verification', said: 'Verification passed.' },
    ]);
  });

  it('names none not in progress, said before it started, on a turn that went on, or said by no one', () => {
    expect(probablyDoneTasks(said(last), [{ ...task, status: 'pending' }])).toEqual([]);
    const started = { ...task, status: 'in_progress', started_at: '2026-05-11T11:06:00Z' };
    expect(probablyDoneTasks(said(last), [started])).toEqual([]);
    const going = { ...task, status: 'in_progress' };
    expect(probablyDoneTasks(said({ ...last, turn_ended: false }), [going])).toEqual([]);
    expect(probablyDoneTasks(said({ ...last, said_nothing: true }), [going])).toEqual([]);
    expect(probablyDoneTasks(said(null), [going])).toEqual([]);
    expect(probablyDoneTasks({}, [going])).toEqual([]);
  });

  it('names none when a usage limit or an API error stopped the turn after that message: it was said on the way', () => {
    const going = { ...task, status: 'in_progress' };
    const limit = summary(
      'usage_limit',
      "You've hit your limit · resets 10:40pm (UTC)",
      '2026-05-11T11:06:00Z',
    );
    const error = summary('api_error', 'API Error: 500', '2026-05-11T11:06:00Z');
    expect(probablyDoneTasks(said(last, { usage_limit: limit }), [going])).toEqual([]);
    expect(probablyDoneTasks(said(last, { api_error: error }), [going])).toEqual([]);
    // the user asking again after the limit: the turn that message ended is the agent's own again
    const asked = { at: '2026-05-11T11:07:00Z', timestamp: '2026-05-11T11:07:00Z' };
    expect(probablyDoneTasks({ ...said(last, { usage_limit: limit }), asked }, [going])).toHaveLength(1);
  });
});
