import { transientApiError } from '../../core/turn-stop.js';
import { isContextFull, isUsageLimit } from '../../core/runtime/usage-limit.js';

/**
 * How a headless Claude Code run ended short of its answer when its API did not fail, in words that say what happened
 * and how to go on: its `result` of subtype `error_max_turns` (the `--max-turns` it was given ran out),
 * `error_max_budget_usd` (its `--max-budget-usd` was spent) or another `error_...` (an error during execution: what
 * it said). Null when the run's words are the API's (an API error, a usage limit, a full context: each has its own
 * way on) or the result is no such subtype (Claude Code reports a failed API call as `success` with `is_error`).
 * `said`: the result's own words (`result`, else its `errors`); `turns`: the turns it reports.
 */
export function runEndedShort(subtype: string, said: string | null, turns: number | null): string | null {
  if (!subtype.startsWith('error_')) return null;
  if (
    said &&
    (/^\s*API Error\b/i.test(said) || transientApiError(said) || isUsageLimit(said) || isContextFull(said))
  )
    return null;
  const after = turns ? `, after ${turns} turn${turns === 1 ? '' : 's'}` : '';
  if (subtype === 'error_max_turns')
    return `the agent stopped at its turn limit (${said ?? '--max-turns reached'}${after}) before its task was done: give it more turns (a higher \`--max-turns\` in the agent profile's args, or none) and run it again to go on`;
  if (subtype === 'error_max_budget_usd')
    return `the agent stopped at its spending limit (${said ?? '--max-budget-usd reached'}${after}) before its task was done: raise \`--max-budget-usd\` in the agent profile's args and run it again to go on`;
  return said
    ? `the agent's run ended on an error during execution (${subtype}): ${said}`
    : `the agent's run ended on an error during execution (${subtype}${after}), saying nothing more`;
}
