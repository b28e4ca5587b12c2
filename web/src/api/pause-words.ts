/**
 * What a requested pause waits for, in words, as the hooks take it: the task under way (its boundary), the agent's
 * turn under way (its Stop), or both, whichever ends first.
 */
export function pauseWaitWords(tasks: readonly string[], turn: boolean): string {
  if (tasks.length && turn)
    return `${tasks.join(', ')} to be done or the agent's turn to end, whichever comes first`;
  if (turn) return "the agent's turn to end";
  return `the task boundary (${tasks.join(', ') || 'none running'})`;
}
