import type { SessionSnapshot } from '../schemas/snapshot.js';
import { compactionBody } from './compaction-words.js';
import { fitSummary } from './fit-summary.js';

/** The agent's account of the session before its context was compacted, as a briefing shows it. */
export interface EarlierSummary {
  at: string;
  text: string;
  /** Characters left out to fit (`baton details summaries` has them). */
  cut: number;
}

/**
 * The latest compaction summary, when the agent said more after it (its last message, newer, is the Last State): what
 * the session was about, what it had done and found before the compaction, in the agent's words, which nothing else in
 * a briefing says once a long session compacted. Cut to `max` characters, what was asked, the user's words and what went
 * wrong first, the code last; where the work stood then (its pending tasks, current work and next step, what it said
 * was in progress) is left out, the Last State being newer.
 * Only the compaction of the session the Last State's message was said in (the one the briefing goes on from): once a
 * later session ended on words of its own, an older session's summary tells of work long past (a task it was on,
 * committed since) as if it were the earlier part of this one. None when nothing of it fits but the names of its
 * sections (`max` 0 among them).
 */
export function beforeCompaction(snap: SessionSnapshot, max: number): EarlierSummary | null {
  const { compaction, last_message } = snap.summaries ?? { compaction: null, last_message: null };
  if (!compaction || !last_message || last_message.timestamp <= compaction.timestamp || max <= 0) return null;
  if (compaction.session_number !== last_message.session_number) return null;
  const whole = compactionBody(compaction.text);
  if (!whole) return null;
  const fitted = fitSummary(whole, max, { past: true });
  // nothing of it fits but the names of its sections, which tell the next session nothing
  if (fitted.cut >= whole.trimEnd().length) return null;
  return { at: compaction.timestamp, text: fitted.text, cut: fitted.cut };
}
