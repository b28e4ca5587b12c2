import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { beforeCompaction } from './before-compaction.js';

const summary = (
  kind: 'compaction' | 'last_message',
  timestamp: string,
  text: string,
  session_number = 1,
) => ({
  id: `s-${kind}`,
  timestamp,
  kind,
  text,
  source: 'claude-code',
  session_number,
});
const compacted =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n1. Primary Request and Intent:\n   - Fix the hanging resume test\n2. Key Technical Concepts:\n   - ACCESSIBLE=1 makes huh read stdin';
const snap = (compactionAt: string, lastAt: string) =>
  ({
    summaries: {
      compaction: summary('compaction', compactionAt, compacted),
      last_message: summary('last_message', lastAt, 'PR created.'),
    },
  }) as unknown as SessionSnapshot;

describe('the compaction summary older than the Last State', () => {
  it("is the agent's account of the session before it, without Claude Code's words to the conversation it continued", () => {
    const s = beforeCompaction(snap('2026-01-19T04:33:54.000Z', '2026-01-19T04:39:53.000Z'), 5000);
    expect(s).toEqual({
      at: '2026-01-19T04:33:54.000Z',
      text: '1. Primary Request and Intent:\n   - Fix the hanging resume test\n2. Key Technical Concepts:\n   - ACCESSIBLE=1 makes huh read stdin',
      cut: 0,
    });
  });

  it('is cut from its start to the room, and none without room', () => {
    const s = beforeCompaction(snap('2026-01-19T04:33:54.000Z', '2026-01-19T04:39:53.000Z'), 60);
    expect(s?.text.startsWith('1. Primary Request and Intent:')).toBe(true);
    expect(s?.text.length).toBeLessThanOrEqual(60);
    expect(s?.cut).toBeGreaterThan(0);
    expect(beforeCompaction(snap('2026-01-19T04:33:54.000Z', '2026-01-19T04:39:53.000Z'), 0)).toBeNull();
  });

  it('is none when nothing of it fits but the names of its sections', () => {
    const sections = ['Primary Request and Intent', 'Key Technical Concepts', 'Files and Code Sections'];
    const long = sections.map((t, i) => `${i + 1}. ${t}:\n   - ${'detail '.repeat(60)}`).join('\n\n');
    const at = '2026-01-19T04:33:54.000Z';
    const later = {
      summaries: {
        compaction: summary('compaction', at, long),
        last_message: summary('last_message', '2026-01-19T04:39:53.000Z', 'PR created.'),
      },
    } as unknown as SessionSnapshot;
    expect(beforeCompaction(later, 200)).toBeNull();
    // with room for the head of what was asked, that head
    expect(beforeCompaction(later, 800)?.text).toMatch(/^1\. Primary Request and Intent:\n {3}- detail/);
  });

  it('is none when the compaction is the newest word (the Last State shows it) or there was none', () => {
    expect(beforeCompaction(snap('2026-01-19T04:40:00.000Z', '2026-01-19T04:39:53.000Z'), 5000)).toBeNull();
    expect(
      beforeCompaction(
        {
          summaries: {
            compaction: null,
            last_message: summary('last_message', '2026-01-19T04:39:53.000Z', 'x'),
          },
        } as unknown as SessionSnapshot,
        5000,
      ),
    ).toBeNull();
  });

  it("is none once a later session ended on its own words: an older session's summary tells of work long past", () => {
    // compacted in session 1 while on T2; session 2 finished T4 and said so: the briefing of session 3 goes on from
    // session 2, and "the tests for T2 are next" is three tasks stale
    const older = (lastSession: number) =>
      ({
        summaries: {
          compaction: summary('compaction', '2026-01-19T04:33:54.000Z', compacted, 1),
          last_message: summary('last_message', '2026-01-19T05:10:00.000Z', 'T4 is committed.', lastSession),
        },
      }) as unknown as SessionSnapshot;
    expect(beforeCompaction(older(2), 5000)).toBeNull();
    // the session that compacted said the last word: its summary is the earlier part of the session gone on from
    expect(beforeCompaction(older(1), 5000)?.text).toMatch(/^1\. Primary Request and Intent:/);
  });
});
