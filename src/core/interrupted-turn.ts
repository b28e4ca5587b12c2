import type { Summary, UserRequest } from './schemas/records.js';

interface Summaries {
  compaction: Summary | null;
  last_message: Summary | null;
  interrupted?: Summary | null;
}

/** The user's latest request (a state's `recent_requests`, a snapshot's `requests`), when one was recorded. */
type Asked = Pick<UserRequest, 'at' | 'timestamp'> | undefined;

const after = (t: string | null | undefined, than: Summary) =>
  !!t && Date.parse(t) > Date.parse(than.timestamp);

/**
 * The user's interruption of the agent's last turn (Esc, Ctrl-C: the turn stopped before it ended), while that turn
 * is the last: once the agent says more (a last message, a compaction summary) or the user asks again, a later turn
 * took its place and the interruption is history (null).
 */
export function interruptedTurn(summaries: Summaries | undefined, asked: Asked): Summary | null {
  const cut = summaries?.interrupted;
  if (!summaries || !cut) return null;
  const later = [
    summaries.last_message?.timestamp,
    summaries.compaction?.timestamp,
    asked?.at ?? asked?.timestamp,
  ];
  return later.some((t) => after(t, cut)) ? null : cut;
}
