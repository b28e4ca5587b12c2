import type { Draft } from '../draft.js';
import { isContextFull } from '../runtime/usage-limit.js';
import { withdrawPause } from './pause.js';
import { resolveError } from './records.js';

/** What a fresh session taking over from one whose context filled up marks fixed. */
export const TOOK_OVER = 'the context was full: a fresh session took over with the compiled context';

/** What a fresh session taking over changed: the errors it marked fixed, and the reason of the pause it withdrew. */
export interface TakeOver {
  fixed: number;
  withdrawn: string | null;
}

/**
 * The agent's context filled up ("Prompt is too long") and a fresh agent session takes task `taskId` over with the
 * compiled context (`baton run`'s fallback). What the full session left is over with it, before the briefing is
 * compiled: the task's agent errors in a full context's words are marked fixed (the next session starts empty; left
 * open, they would head its Errors as the problem to solve, when What to Do Next already says what happened and what
 * to do: `apiErrorStop`), and the pause its context asked for (`exhaustion`, "context 100% full") is withdrawn: taken
 * at the task's end, it would stop the fresh session, whose context is nearly empty, and give its snapshot the dead
 * session's figure for a reason. The fresh session's own readings ask again if it fills up in turn.
 */
export function freshSessionTakesOver(d: Draft, taskId: string): TakeOver {
  const full = d.state.open_errors.filter(
    (e) => e.task_id === taskId && e.error_type === 'agent_error' && isContextFull(e.error_message),
  );
  for (const e of full) resolveError(d, e.id, 'fixed', TOOK_OVER);
  const exhausted = d.state.pause_request?.trigger === 'exhaustion' ? withdrawPause(d) : null;
  return { fixed: full.length, withdrawn: exhausted ? (exhausted.reason ?? 'context full') : null };
}
