import { describe, expect, it } from 'vitest';
import { probablyDoneTasks, saidDone } from './said-done.js';

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
    expect(saidDone('Write the LICENSE file', 'The LICENSE file is written.')).toBe(
      'The LICENSE file is written.',
    );
  });
});

describe('probablyDoneTasks', () => {
  const task = { id: 'T3', title: 'Run focused verification', started_at: '2026-05-11T11:00:00Z' };
  const last = { text: 'Verification passed.', timestamp: '2026-05-11T11:05:00Z', turn_ended: true };

  it('names a task in progress that the message its turn ended on, said after the task started, says is over', () => {
    expect(probablyDoneTasks(last, [{ ...task, status: 'in_progress' }])).toEqual([
      { id: 'T3', title: 'Run focused verification', said: 'Verification passed.' },
    ]);
  });

  it('names none not in progress, said before it started, on a turn that went on, or said by no one', () => {
    expect(probablyDoneTasks(last, [{ ...task, status: 'pending' }])).toEqual([]);
    const started = { ...task, status: 'in_progress', started_at: '2026-05-11T11:06:00Z' };
    expect(probablyDoneTasks(last, [started])).toEqual([]);
    expect(probablyDoneTasks({ ...last, turn_ended: false }, [{ ...task, status: 'in_progress' }])).toEqual(
      [],
    );
    expect(probablyDoneTasks({ ...last, said_nothing: true }, [{ ...task, status: 'in_progress' }])).toEqual(
      [],
    );
    expect(probablyDoneTasks(null, [{ ...task, status: 'in_progress' }])).toEqual([]);
  });
});
