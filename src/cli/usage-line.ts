import { clockAt, clockWords, counted, formatSpan, machineZone, type UsageMetrics } from '../core/index.js';
import { thousands } from './output.js';

/** "1 call", "12,400 calls": a count with its thousands marked. */
const many = (n: number, one: string) => counted(n, one).replace(String(n), thousands(n));

/**
 * The output tokens as said: "output 18,307", or "output ~45,972, estimated where the transcript undercounts" when
 * the transcript recorded some messages' counts as they started (too few: the rough tokens of what they wrote stand
 * in for those).
 */
export const outputSaid = (tokens: number, estimated = false): string =>
  estimated
    ? `output ~${thousands(tokens)}, estimated where the transcript undercounts`
    : `output ${thousands(tokens)}`;

/** A time of today as the user's clock says it ("14:05"), with the day when it is not today ("2026-11-30 14:05"). */
function clock(iso: string, now = new Date()): string {
  const zone = machineZone();
  const [then, today] = [clockAt(Date.parse(iso), zone), clockAt(now.getTime(), zone)];
  if (!then || !today) return iso;
  const words = clockWords(then);
  return words.slice(0, 10) === clockWords(today).slice(0, 10) ? words.slice(11) : words;
}

/**
 * The whole workflow's figures in one line, and the current context apart (a gauge, not a sum); null before any.
 * `compactedAt`: the agent compacted its context then, and no reading since told the fill: the last one is stale.
 */
export function usageLine(u: UsageMetrics, compactedAt: string | null = null): string | null {
  if (!u.tokens_used && !u.llm_calls && u.context_tokens == null) return null;
  const parts = [
    // a context read while the agent worked, before any totals came (its run was cut off): not "0 tokens"
    u.tokens_used || u.llm_calls
      ? `${thousands(u.tokens_used)} tokens${u.output_tokens ? ` (${outputSaid(u.output_tokens, u.output_tokens_estimated)})` : ''}`
      : 'no token totals reported yet',
    // a figure nobody reported is left out (`codex exec --json` gives a run's token totals, not its model calls)
    ...(u.llm_calls ? [many(u.llm_calls, 'call')] : []),
    ...(u.tool_calls ? [many(u.tool_calls, 'tool call')] : []),
    ...(u.cost_usd !== null ? [`$${u.cost_usd.toFixed(2)}`] : []),
    // a span as every span is said ("0m23s", "42m10s", "3h05m"): a short one is not "0 min"
    ...(u.session_duration_seconds ? [`agent time ${formatSpan(u.session_duration_seconds * 1000)}`] : []),
  ];
  const ctx = compactedAt
    ? `; context compacted at ${clock(compactedAt)}; the fill is read again at the next turn`
    : u.context_tokens != null
      ? `; context now ${thousands(u.context_tokens)}${u.context_window ? ` of ${thousands(u.context_window)}` : ''}${u.context_utilization !== null ? ` (${Math.round(u.context_utilization * 100)}%)` : ''}`
      : '';
  return `usage: ${parts.join(', ')}${ctx}`;
}
