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
 * Records what the user asked. The first request becomes the workflow's issue when it has none (in the fold);
 * the same words recorded again (a hook saw the prompt, then a transcript import sees it) write nothing: null.
 */
export function recordRequest(d: Draft, input: RequestInput): UserRequest | null {
  const text = clipRequest(input.text ?? '');
  if (!text) throw invalidInput('a request needs text');
  const key = requestKey(text);
  if ((d.state.request_keys ?? []).includes(key)) return null;
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
