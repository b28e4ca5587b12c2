import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import { clipRequest, requestKey } from '../requests/request-text.js';
import type { UserRequest } from '../schemas/records.js';
import { pickedItem } from '../requests/menu-pick.js';

export interface RequestInput {
  text: string;
  /** When the user asked (the transcript's timestamp, or the hook's time); null when unknown. */
  at?: string | null;
  /** Where it was seen: `claude-code`, `codex` (a transcript), `claude-code:hook` (a prompt hook), `cli`... */
  source?: string | null;
  /**
   * The agent's message the request answered, when the caller has it (a transcript's): a request that names an item
   * of its list by its label is recorded with the item (`refers_to`). Absent, the last message recorded since the
   * request before (a Stop hook's) is that message; null: none.
   */
  agent_said?: string | null;
}

/**
 * A prompt is seen twice when hooks follow the session: by its UserPromptSubmit hook (source `<agent>:hook`, stamped
 * when the hook ran) and by the transcript import (the transcript's time). Each hook sighting pairs with one
 * transcript sighting of the same words, whatever their times; within one channel, the same words at another time
 * are said again.
 */
/** Whether a request was seen by the agent's prompt hook (its `source` is `<agent>:hook`), not read from a transcript. */
export const viaHook = (source: string | null | undefined) => source?.endsWith(':hook') ?? false;
/** A sighting this close to one of the same channel is that one again (a re-import, a hook retried). */
const SAME_SIGHTING_MS = 1_000;

/**
 * Records what the user asked. The first request becomes the workflow's issue when it has none (in the fold);
 * the same words recorded again (a hook saw the prompt, then a transcript import sees it) write nothing: null.
 * The same words said again later ("approved" twice) are recorded again (saidAgain).
 */
export function recordRequest(d: Draft, input: RequestInput): UserRequest | null {
  const text = clipRequest(input.text ?? '');
  if (!text) throw invalidInput('a request needs text');
  const key = requestKey(text);
  if ((d.state.request_keys ?? []).includes(key) && !saidAgain(d, key, input)) return null;
  const request: UserRequest = {
    id: d.ctx.newId('req'),
    timestamp: d.ctx.now,
    at: input.at ?? null,
    session_number: Math.max(1, d.state.session_count),
    text,
    source: input.source ?? null,
  };
  const named = pickedItem(text, input.agent_said === undefined ? lastMessageSince(d) : input.agent_said);
  if (named) request.refers_to = named;
  d.emit({ type: 'request.recorded', data: { request, key } });
  return request;
}

/** Whether words already recorded are said again now, or this is another sighting of a recorded request. */
function saidAgain(d: Draft, key: string, input: RequestInput): boolean {
  if (!input.at) return false;
  const recent = d.state.recent_requests ?? [];
  const recorded = recent.filter((r) => requestKey(r.text) === key);
  const when = Date.parse(input.at);
  // words that left the recent list: said again when this sighting is newer than every recent request (a line read
  // again is as old as it was; a transcript line the hooks saw long ago is older than what they saw since), else the
  // same request
  if (recorded.length === 0) {
    const times = recent.flatMap((r) => (r.at ? [Date.parse(r.at)] : []));
    return times.length > 0 && times.every((t) => when > t);
  }
  const mine = recorded.filter((r) => viaHook(r.source) === viaHook(input.source));
  // the other channel recorded these words more often: this sighting is one of those
  if (recorded.length - mine.length > mine.length) return false;
  return mine.every((r) => r.at !== null && Math.abs(Date.parse(r.at) - when) > SAME_SIGHTING_MS);
}

/** The agent's last message, when it was recorded after the latest request (the turn the user now answers). */
function lastMessageSince(d: Draft): string | null {
  const said = d.state.summaries?.last_message;
  const asked = d.state.recent_requests?.at(-1);
  if (!said || said.said_nothing) return null;
  return !asked || said.timestamp > asked.timestamp ? said.text : null;
}
