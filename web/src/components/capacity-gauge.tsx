/**
 * The context-capacity gauge: the share of the model's context window the current context fills, as the server
 * computed it (utilisation is computed once, in Baton's core). The context size is a gauge of its own, never the
 * tokens used over the session.
 */
export function CapacityGauge({
  utilization,
  tokens,
  window,
  warnAt = 0.7,
  said,
}: {
  utilization: number | null;
  tokens: number | null;
  window: number | null;
  warnAt?: number;
  /** Whose reading it is, when not the current session's own. */
  said?: string | undefined;
}) {
  if (utilization === null) {
    return (
      <div className="gauge gauge-unknown" data-testid="capacity-gauge">
        <span className="muted">Context use unknown (no usage with a context window recorded yet)</span>
      </div>
    );
  }
  const pct = Math.round(utilization * 100);
  const level = pct >= 90 ? 'critical' : utilization >= warnAt ? 'warn' : 'ok';
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
        <div
          className="gauge-mark"
          style={{ left: `${Math.round(warnAt * 100)}%` }}
          title={`capacity warning (${Math.round(warnAt * 100)} %)`}
        />
      </div>
      <div className="small">
        <strong>{pct}%</strong> of the context window
        {window && tokens !== null
          ? ` (${tokens.toLocaleString()} of ${window.toLocaleString()} tokens)`
          : ''}
        {level !== 'ok' && (
          <span className="tag tag-warn">{level === 'critical' ? 'near exhaustion' : 'high'}</span>
        )}
        {said && (
          <span className="muted" data-testid="gauge-said">
            {' '}
            ({said})
          </span>
        )}
      </div>
    </div>
  );
}
