import { contextUtilization } from '../capacity.js';
import type { EventOf } from '../schemas/events.js';
import { emptyTotals, emptyUsage, type UsageMetrics, type UsageTotals } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import { writtenBy } from '../transcript-key.js';

/** How many sources' latest readings the state keeps to turn the next reading of each into an increment. */
export const USAGE_SOURCE_LIMIT = 16;

type Counters = Omit<UsageTotals, 'readings'>;

const countersOf = (u: UsageMetrics): Counters => ({
  tokens_used: u.tokens_used,
  output_tokens: u.output_tokens ?? 0,
  llm_calls: u.llm_calls,
  tool_calls: u.tool_calls,
  cost_usd: u.cost_usd ?? 0,
  duration_seconds: u.session_duration_seconds,
});

const keys = [
  'tokens_used',
  'output_tokens',
  'llm_calls',
  'tool_calls',
  'cost_usd',
  'duration_seconds',
] as const;

const maxOf = (...xs: (number | null | undefined)[]): number | null => {
  const known = xs.filter((x): x is number => typeof x === 'number');
  return known.length ? Math.max(...known) : null;
};

/** Nano-dollars: sums of prices add up (0.135 x 3 = 0.405, not 0.40500000000000003) and keep every digit agents report. */
const money = (x: number) => Math.round(x * 1e9) / 1e9;

/**
 * What a reading adds to the totals: its difference from the same source's previous reading. A counter that went
 * down means the source started over (a new agent run under the same name): the reading counts whole.
 */
export function usageIncrement(reading: UsageMetrics, previous: Counters | undefined): Counters {
  const now = countersOf(reading);
  const out = { ...now };
  if (previous) for (const k of keys) out[k] = now[k] >= previous[k] ? now[k] - previous[k] : now[k];
  out.cost_usd = money(out.cost_usd);
  return out;
}

/**
 * A run's reading of an agent whose token counters are its session's (Codex's thread: a resumed one counts every
 * earlier run's tokens too), made the session's whole: this run's own counters (its calls, cost and time) are added
 * to the session's last reading, so the fold adds this run's share of each. The first reading of a session is whole.
 */
export function sessionReading(run: UsageMetrics, last: Counters | undefined): UsageMetrics {
  if (!last) return run;
  return {
    ...run,
    llm_calls: last.llm_calls + run.llm_calls,
    tool_calls: last.tool_calls + run.tool_calls,
    cost_usd: run.cost_usd === null ? null : money(last.cost_usd + run.cost_usd),
    session_duration_seconds: last.duration_seconds + run.session_duration_seconds,
  };
}

export function addUsage(t: UsageTotals, inc: Counters): UsageTotals {
  const out = { ...t, readings: t.readings + 1 };
  for (const k of keys) out[k] = t[k] + inc[k];
  out.cost_usd = money(out.cost_usd);
  return out;
}

const TRANSCRIPT = 'transcript:';

/**
 * The index in `s.sessions` of the Baton session a reading is of: the last one that follows the agent session whose
 * transcript it was read from (`transcript:<key>`), since a transcript may be read late, after another conversation's
 * session began (a conversation cut off beside it) or by an import afterwards; else the open session. -1: none.
 *
 * The agent session is the one a Claude Code transcript is named after (`<session id>.jsonl`), else the one that wrote
 * its first line (the key's start: a sub-agent's transcript, a Codex rollout): a conversation resumed under a new
 * session id starts its own file with copies of the old one's lines.
 */
export function usageSessionIndex(s: WorkflowState, source: string | undefined): number {
  const open = s.sessions.length - 1;
  if (!source?.startsWith(TRANSCRIPT)) return open;
  const key = source.slice(TRANSCRIPT.length);
  const named = key.slice(key.lastIndexOf(':') + 1).replace(/\.jsonl$/, '');
  const last = (is: (id: string) => boolean) =>
    s.sessions.findLastIndex((x) => x.agent?.session_id !== undefined && is(x.agent.session_id));
  const byName = last((id) => id === named);
  if (byName >= 0) return byName;
  const byWriter = last((id) => key === id || writtenBy(key, id));
  return byWriter >= 0 ? byWriter : open;
}

/**
 * The fold of `usage.recorded`: the workflow's totals, and those of the session the reading is of
 * (`usageSessionIndex`), grow by the reading's increment. A reading of the open session also moves `s.usage`, its
 * totals and the current context (size, window, utilisation, what remains: the latest reading's); one of an earlier
 * session (its transcript read late) leaves them be, as they are the open session's.
 */
export function foldUsage(s: WorkflowState, e: EventOf<'usage.recorded'>): WorkflowState {
  const r = e.data.usage;
  const source = e.data.source ?? `session-${e.session_number ?? s.session_count}`;
  const sources = s.usage_sources ?? {};
  const inc = usageIncrement(r, sources[source]);
  const nextSources = Object.fromEntries(
    [...Object.entries(sources).filter(([k]) => k !== source), [source, countersOf(r)] as const].slice(
      -USAGE_SOURCE_LIMIT,
    ),
  );
  const at = usageSessionIndex(s, e.data.source);
  if (at >= 0 && at < s.sessions.length - 1) {
    const of = s.sessions[at]!;
    return {
      ...s,
      counts: { ...s.counts, usage: s.counts.usage + 1 },
      usage_total: addUsage(s.usage_total ?? emptyTotals(), inc),
      usage_sources: nextSources,
      sessions: s.sessions.map((x, i) =>
        i === at ? { ...of, usage: addUsage(of.usage ?? emptyTotals(), inc) } : x,
      ),
    };
  }
  const cur = s.usage;
  const window = r.context_window ?? cur.context_window;
  // The gauge: the context size the reading reports (null: it does not know, the last one stands). A reading
  // without the field at all is the older kind: the utilisation it carried, else its tokens against the window.
  const context =
    r.context_tokens !== undefined && r.context_tokens !== null
      ? r.context_tokens
      : r.context_tokens === undefined && window
        ? r.context_utilization !== null
          ? Math.round(r.context_utilization * window)
          : Math.min(r.tokens_used, window)
        : (cur.context_tokens ?? null);
  const session = addUsage(
    {
      tokens_used: cur.tokens_used,
      output_tokens: cur.output_tokens ?? 0,
      llm_calls: cur.llm_calls,
      tool_calls: cur.tool_calls,
      cost_usd: cur.cost_usd ?? 0,
      duration_seconds: cur.session_duration_seconds,
      readings: 0,
    },
    inc,
  );
  const usage: UsageMetrics = {
    tokens_used: session.tokens_used,
    output_tokens: session.output_tokens,
    // once a reading's output count was estimated, the sum holds that estimate
    ...(r.output_tokens_estimated || cur.output_tokens_estimated ? { output_tokens_estimated: true } : {}),
    llm_calls: session.llm_calls,
    tool_calls: session.tool_calls,
    cost_usd: cur.cost_usd === null && r.cost_usd === null ? null : session.cost_usd,
    session_duration_seconds: session.duration_seconds,
    context_window: window,
    context_tokens: context,
    // The largest context of any call (a transcript reports it; the current context otherwise raises it).
    peak_context_tokens: maxOf(r.peak_context_tokens, cur.peak_context_tokens, context),
    context_utilization: context !== null && window ? contextUtilization(context, window) : null,
    tokens_remaining_estimate: context !== null && window ? Math.max(0, window - context) : null,
  };
  const last = s.sessions[s.sessions.length - 1];
  return {
    ...s,
    counts: { ...s.counts, usage: s.counts.usage + 1 },
    usage,
    usage_total: addUsage(s.usage_total ?? emptyTotals(), inc),
    usage_sources: nextSources,
    sessions: last
      ? [...s.sessions.slice(0, -1), { ...last, usage: addUsage(last.usage ?? emptyTotals(), inc) }]
      : s.sessions,
  };
}

/**
 * The workflow's usage as `status` shows it: the totals of every session (what the work cost), with the current
 * context gauge (size, window, utilisation, what remains) of the running or last session beside them.
 */
export function workflowUsage(s: WorkflowState): UsageMetrics {
  const t = s.usage_total;
  if (!t) return s.usage;
  return {
    ...s.usage,
    tokens_used: t.tokens_used,
    output_tokens: t.output_tokens,
    llm_calls: t.llm_calls,
    tool_calls: t.tool_calls,
    cost_usd: t.cost_usd > 0 ? t.cost_usd : s.usage.cost_usd,
    session_duration_seconds: t.duration_seconds,
  };
}

/**
 * A session's usage said from its totals alone (an earlier session's: the state's gauge of the context is the open
 * session's, so none is said); a cost nobody reported is unknown, not $0.
 */
export function usageOfTotals(t: UsageTotals): UsageMetrics {
  return {
    ...emptyUsage(),
    tokens_used: t.tokens_used,
    output_tokens: t.output_tokens,
    llm_calls: t.llm_calls,
    tool_calls: t.tool_calls,
    cost_usd: t.cost_usd > 0 ? t.cost_usd : null,
    session_duration_seconds: t.duration_seconds,
  };
}

/** The current context as a gauge alone (null until a reading tells it). */
export function contextUsage(s: WorkflowState) {
  const u = s.usage;
  if (u.context_tokens === null || u.context_tokens === undefined || !u.context_window) return null;
  return {
    tokens: u.context_tokens,
    window: u.context_window,
    utilization: contextUtilization(u.context_tokens, u.context_window),
    remaining: Math.max(0, u.context_window - u.context_tokens),
  };
}
