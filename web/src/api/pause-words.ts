import type { Status } from './types.js';

/** What a pause waits for, as the server decides it (`pause_waits_for`; a pause's `waiting_for` and `waiting_for_turn`). */
export type PauseWaits = Status['pause_waits_for'];

/**
 * What a requested pause waits for, in words: the task under way (its boundary), the agent's turn under way (its
 * Stop), or both, whichever ends first. The server decides which; this only says it.
 */
export function pauseWaitWords(waits: PauseWaits): string {
  const tasks = waits?.tasks ?? [];
  if (tasks.length && waits?.turn)
    return `${tasks.join(', ')} to be done or the agent's turn to end, whichever comes first`;
  if (waits?.turn) return "the agent's turn to end";
  return `the task boundary (${tasks.join(', ') || 'none running'})`;
}
