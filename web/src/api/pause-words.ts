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

/**
 * `baton status` says it of a request left with nothing to wait for (src/core/commands/pause.ts: nothingLeft; web/
 * may import only types from src/, and test/lint/web-pause-words.test.ts checks the two say the same).
 */
export const nothingLeft = 'nothing left to wait for';

/**
 * What a pending pause waits for, as the banner says it: what it waits for, or, when the server says nothing (a
 * transcript read in after the request: no agent will end its task or its turn), that only `baton pause`, or the
 * request's timeout, takes it.
 */
export function pendingPauseWords(waits: PauseWaits): string {
  return waits
    ? `waiting for ${pauseWaitWords(waits)}`
    : `${nothingLeft}: \`baton pause\` takes it now, or its timeout does`;
}
