import { clip } from '../clip.js';
import { onlyGoesOn } from '../requests/request-text.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import type { UserRequest } from '../schemas/records.js';
import { turnStoppedBy, type TurnStopper } from '../turn-stop.js';

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/** When the agent last spoke (its last message), or null when it said nothing (a session cut off before a word). */
export function lastSaidAt(snap: SessionSnapshot): number | null {
  const last = snap.summaries?.last_message;
  return last && last.said_nothing !== true ? time(last.timestamp) : null;
}

/** When a request was said (its transcript's time, else when it was recorded). */
export const requestAt = (r: Pick<UserRequest, 'at' | 'timestamp'>) => time(r.at ?? r.timestamp);

/** Whether the agent's last message came after the request (any message at all when there is none). */
export function saidSince(snap: SessionSnapshot, asked: UserRequest | undefined): boolean {
  const said = lastSaidAt(snap);
  return said !== null && (asked === undefined || said >= requestAt(asked));
}

/** The latest request that asks for something: not a go-ahead ("continue", "ok go on"), which asks to go on with it. */
export const latestAsking = (snap: SessionSnapshot): UserRequest | undefined =>
  [...snap.requests].reverse().find((r) => !onlyGoesOn(r));

/** What cut a turn off, in words. */
export const stopperWords: Record<TurnStopper, string> = {
  usage_limit: 'a usage limit',
  api_error: 'an API error',
  context_full: 'a full context',
};

/**
 * The agent's turn on the user's latest request that something other than the agent cut off (an API error, a full
 * context, a usage limit: `by`), the request still to be carried out; `said`: the agent's last message came in that
 * turn, so it tells how far the turn got. Either nothing was said or asked since the stop (`turnStoppedBy`), or the
 * user said only a go-ahead since (`resumed`, their words: "continue" after the limit's reset), the agent silent
 * since the request: that go-ahead asks to go on with the request the stop cut off (`request`, its first words),
 * not to do what an older message of the agent's proposed. Null otherwise.
 */
export interface CutTurn {
  by: TurnStopper;
  said: boolean;
  /** The request whose turn was cut off, on one line, cut to 80 characters (the Goal shows it whole). */
  request: string | null;
  resumed?: string;
}

export function cutTurn(snap: SessionSnapshot): CutTurn | null {
  const latest = snap.requests.at(-1);
  const words = (r: UserRequest | undefined) => (r ? clip(r.text.replace(/\s+/g, ' ').trim(), 80) : null);
  const by = turnStoppedBy(snap.summaries, latest);
  if (by) return { by, said: saidSince(snap, latest), request: words(latestAsking(snap) ?? latest) };
  if (!latest || !onlyGoesOn(latest)) return null;
  // only go-aheads since the stop, and no word of the agent's since the request before them: the go-ahead goes on
  // with that request's turn (a turn the agent spoke in, then a go-ahead to its message that the stop cut, is
  // `goAhead`'s: what the message proposed)
  const asked = latestAsking(snap);
  const before = asked && !saidSince(snap, asked) ? turnStoppedBy(snap.summaries, asked) : null;
  if (!asked || !before) return null;
  return { by: before, said: false, request: words(asked), resumed: latest.text.replace(/\s+/g, ' ').trim() };
}
