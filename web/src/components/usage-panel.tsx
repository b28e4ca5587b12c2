import type { Snapshot } from '../api/index.js';
import { CapacityGauge } from './capacity-gauge.js';

type Usage = Snapshot['usage'];

/** Usage metrics with the context-capacity gauge. */
export function UsagePanel({ usage: u }: { usage: Usage }) {
  return (
    <div data-testid="usage">
      <CapacityGauge utilization={u.context_utilization} used={u.tokens_used} window={u.context_window} />
      <dl className="facts facts-inline">
        <dt>Tokens</dt>
        <dd>{u.tokens_used.toLocaleString()}</dd>
        <dt>LLM calls</dt>
        <dd>{u.llm_calls}</dd>
        <dt>Tool calls</dt>
        <dd>{u.tool_calls}</dd>
        <dt>Cost</dt>
        <dd>{u.cost_usd === null ? '-' : `$${u.cost_usd.toFixed(2)}`}</dd>
        <dt>Duration</dt>
        <dd>{Math.round(u.session_duration_seconds / 60)} min</dd>
      </dl>
    </div>
  );
}
