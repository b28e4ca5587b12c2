import { describe, expect, it } from 'vitest';
import { sameNote } from './hook-entry.js';

describe('sameNote: whether a hook failure is news to the user', () => {
  it('is the same failure when only its counts moved', () => {
    expect(
      sameNote(
        'transcript not imported: cannot read the transcript /t/a.jsonl: EACCES; no checkpoint: the last checkpoint is 2 min old (interval 10 min)',
        'transcript not imported: cannot read the transcript /t/a.jsonl: EACCES; no checkpoint: the last checkpoint is 7 min old (interval 10 min)',
      ),
    ).toBe(true);
  });

  it('is news when the words change', () => {
    expect(
      sameNote(
        'cannot read the transcript /t/a.jsonl: EACCES',
        'cannot read the transcript /t/a.jsonl: ENOENT',
      ),
    ).toBe(false);
  });
});
