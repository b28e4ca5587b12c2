import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { HELD_SUMMARY, withoutHeldSummary } from './held-summary.js';

const summary = (kind: 'compaction' | 'last_message', text: string, timestamp: string) => ({
  id: `sum-${timestamp}`,
  kind,
  text,
  timestamp,
  source: 'claude-code',
  session_number: 1,
});
const snapshot = (summaries: SessionSnapshot['summaries']) => ({ summaries }) as SessionSnapshot;
const began = '2026-03-01T10:00:00.000Z';

describe('withoutHeldSummary', () => {
  it('names, rather than repeats, a compaction summary recorded since the session began and newer than its last word', () => {
    const snap = snapshot({
      last_message: summary('last_message', 'Parser done.', '2026-03-01T10:05:00.000Z'),
      compaction: summary('compaction', 'A long summary of everything.', '2026-03-01T10:09:00.000Z'),
    });
    const shown = withoutHeldSummary(snap, began);
    expect(shown.summaries.compaction?.text).toBe(HELD_SUMMARY);
    expect(shown.summaries.last_message?.text).toBe('Parser done.');
    // the snapshot itself is left whole
    expect(snap.summaries.compaction?.text).toBe('A long summary of everything.');
  });

  it('leaves a summary of an earlier session, and one the agent spoke after, whole', () => {
    const older = snapshot({
      last_message: null,
      compaction: summary('compaction', 'From before.', '2026-03-01T09:00:00.000Z'),
    });
    expect(withoutHeldSummary(older, began)).toBe(older);
    const spokeAfter = snapshot({
      compaction: summary('compaction', 'Compacted.', '2026-03-01T10:01:00.000Z'),
      last_message: summary('last_message', 'Then I wrote the API.', '2026-03-01T10:30:00.000Z'),
    });
    expect(withoutHeldSummary(spokeAfter, began)).toBe(spokeAfter);
  });
});
