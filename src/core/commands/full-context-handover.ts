import type { Draft } from '../draft.js';
import { isContextFull } from '../runtime/usage-limit.js';
import { resolveError } from './records.js';

/** What a fresh session taking over from one whose context filled up marks fixed. */
export const TOOK_OVER = 'the context was full: a fresh session took over with the compiled context';

/**
 * The agent's context filled up ("Prompt is too long") and a fresh agent session takes task `taskId` over with the
 * compiled context (`baton run`'s fallback). The agent errors of the task in a full context's words are over: the
 * session that met them is gone and the next starts empty, so they are marked fixed before the briefing is compiled;
 * left open, they would head its Errors as the problem to solve, when What to Do Next already says what happened and
 * what to do (`apiErrorStop`). Returns how many were marked.
 */
export function freshSessionTakesOver(d: Draft, taskId: string): number {
  const full = d.state.open_errors.filter(
    (e) => e.task_id === taskId && e.error_type === 'agent_error' && isContextFull(e.error_message),
  );
  for (const e of full) resolveError(d, e.id, 'fixed', TOOK_OVER);
  return full.length;
}
