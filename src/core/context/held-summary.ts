import type { SessionSnapshot } from '../schemas/snapshot.js';

/** What Last State says instead of a compaction summary the session already holds. */
export const HELD_SUMMARY =
  'Not repeated here: the summary of this compaction opens your context (`baton details summaries` has it whole).';

/**
 * The snapshot as an agent session that compacted its own context should get it. The compacted conversation starts
 * from the agent's own summary (Claude Code's and Codex's alike), so a compaction summary recorded since the session
 * began, newer than the agent's last message, is named rather than repeated: it often runs to thousands of
 * characters of a briefing capped at a few thousand. Any other session (after `/clear`, a new conversation) gets it
 * whole.
 */
export function withoutHeldSummary(snap: SessionSnapshot, sessionStartedAt: string): SessionSnapshot {
  const { compaction, last_message } = snap.summaries;
  const time = (t: string) => Date.parse(t);
  if (!compaction || time(compaction.timestamp) < time(sessionStartedAt)) return snap;
  if (last_message && time(last_message.timestamp) > time(compaction.timestamp)) return snap;
  return { ...snap, summaries: { ...snap.summaries, compaction: { ...compaction, text: HELD_SUMMARY } } };
}
