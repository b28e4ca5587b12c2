import type { UsageMetrics } from '../api/index.js';
import { CapacityGauge } from './capacity-gauge.js';

const money = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `$${x.toFixed(2)}`);
const minutes = (s: number) => (s < 60 ? `${s} s` : `${Math.round(s / 60)} min`);
/** Model calls, or "-" where tokens were spent and nobody counted the calls (`codex exec --json` gives totals only). */
const calls = (u: UsageMetrics) => (u.llm_calls || !u.tokens_used ? u.llm_calls : '-');

/**
 * Usage: the current context (a gauge), then what the work cost. On a workflow `usage` is every session summed and
 * `session` the current session's; on a snapshot there is only the session's.
 */
export function UsagePanel({
  usage: u,
  session,
  sessions,
  warnAt,
  lastReading,
}: {
  usage: UsageMetrics;
  session?: UsageMetrics;
  sessions?: number;
  /** Where the driver warns (its `--warn-at`); the gauge's mark stands there. */
  warnAt?: number;
  /** The context's last known reading, shown while `usage` has none, with whose reading it is. */
  lastReading?: { usage: UsageMetrics; said: string } | undefined;
}) {
  const gauge = u.context_utilization === null && lastReading ? lastReading.usage : u;
  const contextTokens =
    gauge.context_tokens ??
    (gauge.context_utilization !== null && gauge.context_window
      ? Math.round(gauge.context_utilization * gauge.context_window)
      : null);
  // nothing counted at all: an agent that reports no usage (a command agent), not a free one
  const reported =
    u.tokens_used > 0 ||
    u.llm_calls > 0 ||
    u.tool_calls > 0 ||
    u.session_duration_seconds > 0 ||
    (u.cost_usd ?? null) !== null;
  return (
    <div data-testid="usage">
      <CapacityGauge
        utilization={gauge.context_utilization}
        tokens={contextTokens}
        window={gauge.context_window}
        warnAt={warnAt}
        said={gauge === u ? undefined : lastReading?.said}
      />
      {/* a context reading is usage too: the gauge above shows it, its totals come later (as the CLI says it) */}
      {!reported && (
        <p className="muted small" data-testid="usage-none">
          {u.context_tokens != null || u.context_utilization !== null
            ? 'No token totals yet: so far only the context its agent fills (above) is recorded; its tokens, calls and time are counted as its run or turn ends.'
            : 'No usage reported: its agent said nothing of tokens, calls or time (a command agent does not).'}
        </p>
      )}
      {reported && (
        <dl className="facts facts-inline" data-testid="usage-totals">
          <dt>{session ? `Cost (${sessions ?? 'all'} session${sessions === 1 ? '' : 's'})` : 'Cost'}</dt>
          <dd data-testid="usage-cost">{money(u.cost_usd)}</dd>
          <dt>Tokens</dt>
          <dd>{u.tokens_used.toLocaleString()}</dd>
          {u.output_tokens ? (
            <>
              <dt>Output tokens</dt>
              <dd>{u.output_tokens.toLocaleString()}</dd>
            </>
          ) : null}
          <dt>LLM calls</dt>
          <dd>{calls(u)}</dd>
          <dt>Tool calls</dt>
          <dd>{u.tool_calls}</dd>
          <dt>Agent time</dt>
          <dd>{minutes(u.session_duration_seconds)}</dd>
          {session && (
            <>
              <dt>This session</dt>
              <dd data-testid="usage-session">
                {money(session.cost_usd)}
                {session.llm_calls ? ` · ${session.llm_calls} calls` : ''}
              </dd>
            </>
          )}
        </dl>
      )}
    </div>
  );
}
