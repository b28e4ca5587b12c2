import { lastRequestAnswered } from './commands/finished-work.js';
import { listTotals } from './fold/bounds.js';
import type { WorkflowState } from './schemas/state.js';
import { limitStop } from './usage-limit-stop.js';

/** The requests recorded since the last end of an agent's turn a hook reported (all of them when none was). */
export const requestsSinceTurnEnd = (s: WorkflowState) =>
  listTotals(s).requests - (s.turn_ended?.requests ?? 0);

/**
 * Whether the agent's turn on the user's last request is over, as far as Baton saw: a hook reported its end (a
 * Stop, whether or not the last response had words), the agent's last message ended it, or something since explains
 * the stop (a usage limit, a StopFailure's or a pause's snapshot). Null when the user asked nothing yet.
 */
export function turnOver(s: WorkflowState): boolean | null {
  const asked = (s.recent_requests ?? []).at(-1);
  if (!asked) return null;
  if (requestsSinceTurnEnd(s) <= 0) return true;
  if (lastRequestAnswered(s) === true || limitStop(s.summaries) !== null) return true;
  const snap = s.last_snapshot;
  return (
    !!snap &&
    ['pause', 'timeout', 'crash'].includes(snap.trigger) &&
    Date.parse(snap.created_at) >= Date.parse(asked.at ?? asked.timestamp)
  );
}
