import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { lastState } from './context-parts.js';

const summary = (kind: 'compaction' | 'last_message', timestamp: string, text: string) => ({
  id: `s-${kind}`,
  timestamp,
  kind,
  text,
  source: 'claude-code',
  session_number: 1,
});

/** A crash snapshot whose latest compaction came after the agent's last message and the calls it made then. */
const snap = (compaction: string) =>
  ({
    trigger: 'crash',
    requests: [],
    recent_history: [],
    tasks: [],
    summaries: {
      compaction: summary('compaction', '2026-12-06T11:51:28.079Z', compaction),
      last_message: {
        ...summary(
          'last_message',
          '2026-12-06T11:51:25.387Z',
          'I will read calc.py first, then add mul and div.\n\nAfter it: `Bash: python3 -m pytest -q` worked',
        ),
        turn_ended: false,
      },
    },
  }) as unknown as SessionSnapshot;

describe('the Last State after a compaction', () => {
  it('is the compaction summary when it says something', () => {
    const s = lastState(
      snap(
        'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n1. Primary Request: add mul and div',
      ),
      1500,
    );
    expect(s).toMatchObject({ kind: 'compaction', text: '1. Primary Request: add mul and div' });
  });

  it("is the agent's last message when the summary holds only Claude Code's words to the conversation it continues", () => {
    // nothing is left of such a summary once those words are taken out: an empty Last State would hide the last
    // message, and the calls the agent made after it, from the next session
    const s = lastState(
      snap(
        'This session is being continued from a previous conversation that ran out of context. Please continue the conversation from where we left off without asking the user any further questions.',
      ),
      1500,
    );
    expect(s?.kind).toBe('last_message');
    expect(s?.text).toContain('`Bash: python3 -m pytest -q` worked');
  });
});
