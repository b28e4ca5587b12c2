/**
 * The context-capacity gauge: share of the model's context window in use (warn at 70 %, like the server). Without
 * a recorded utilisation it is computed from the tokens used and the context window, when both are known.
 */
export function CapacityGauge({
  utilization,
  used,
  window,
}: {
  utilization: number | null;
  used: number;
  window: number | null;
}) {
  if (utilization === null && window) utilization = Math.min(1, used / window);
  if (utilization === null) {
    return (
      <div className="gauge gauge-unknown" data-testid="capacity-gauge">
        <span className="muted">Context use unknown (no usage with a context window recorded yet)</span>
      </div>
    );
  }
  const pct = Math.round(utilization * 100);
  const level = pct >= 90 ? 'critical' : pct >= 70 ? 'warn' : 'ok';
  return (
    <div className={`gauge gauge-${level}`} data-testid="capacity-gauge">
      <div
        className="gauge-track"
        role="meter"
        aria-label="context capacity"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="gauge-fill" style={{ width: `${Math.min(100, pct)}%` }} />
        <div className="gauge-mark" style={{ left: '70%' }} title="capacity warning (70 %)" />
      </div>
      <div className="small">
        <strong>{pct}%</strong> of the context window
        {window ? ` (${used.toLocaleString()} of ${window.toLocaleString()} tokens)` : ''}
        {level !== 'ok' && (
          <span className="tag tag-warn">{level === 'critical' ? 'near exhaustion' : 'high'}</span>
        )}
      </div>
    </div>
  );
}
