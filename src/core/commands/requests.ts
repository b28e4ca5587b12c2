import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import { clipRequest, requestKey } from '../requests/request-text.js';
import type { UserRequest } from '../schemas/records.js';

export interface RequestInput {
  text: string;
  /** When the user asked (the transcript's timestamp, or the hook's time); null when unknown. */
  at?: string | null;
  /** Where it was seen: `claude-code`, `codex`, `hook`, `cli`... */
  source?: string | null;
}

/**
 * Two sightings of one prompt (the hook's, stamped when it ran, and the transcript's) are this close in time; the
 * same words said again later ("approved", "go on") are another request.
 */
export const SAME_PROMPT_WITHIN_MS = 60_000;

/**
 * Records what the user asked. The first request becomes the workflow's issue when it has none (in the fold);
 * the same words recorded again (a hook saw the prompt, then a transcript import sees it) write nothing: null.
 * The same words said again, more than SAME_PROMPT_WITHIN_MS after the last time they were, are recorded.
 */
export function recordRequest(d: Draft, input: RequestInput): UserRequest | null {
  const text = clipRequest(input.text ?? '');
  if (!text) throw invalidInput('a request needs text');
  const key = requestKey(text);
  if ((d.state.request_keys ?? []).includes(key) && !saidAgain(d, key, input.at ?? null)) return null;
  const request: UserRequest = {
    id: d.ctx.newId('req'),
    timestamp: d.ctx.now,
    at: input.at ?? null,
    session_number: Math.max(1, d.state.session_count),
    text,
    source: input.source ?? null,
  };
  d.emit({ type: 'request.recorded', data: { request, key } });
  return request;
}

/** Whether words already recorded are said again now: the last time they were is known, and far enough from `at`. */
function saidAgain(d: Draft, key: string, at: string | null): boolean {
  if (at === null) return false;
  const times = (d.state.recent_requests ?? []).filter((r) => requestKey(r.text) === key).map((r) => r.at);
  // words that left the recent list, or a sighting without a time: the same request
  if (times.length === 0 || times.some((t) => t === null)) return false;
  const when = Date.parse(at);
  return times.every((t) => Math.abs(Date.parse(t!) - when) > SAME_PROMPT_WITHIN_MS);
}
