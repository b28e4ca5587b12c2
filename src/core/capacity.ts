/**
 * Capacity monitoring (the Amelia design): how full the agent's context is, from exact token counts when the
 * stream gives them, else estimated from the cost (about $9 per million tokens, half input at $3 and half
 * output at $15).
 */
export interface CapacityPolicy {
  /** Utilisation at which a `capacity.warned` event is written (default 0.70). */
  warnAt: number;
  /** Utilisation at which the workflow is paused with trigger `exhaustion` at the next task boundary (0.85). */
  pauseAt: number;
}

export const defaultCapacityPolicy: CapacityPolicy = { warnAt: 0.7, pauseAt: 0.85 };

export interface UsageReading {
  /** The full prompt of the latest model call (input + cache read + cache creation), when reported. */
  context_tokens: number | null;
  cost_usd: number | null;
  /** The window the agent reported; the profile's window is used when null. */
  context_window: number | null;
}

export interface CapacityMeasure {
  tokens: number;
  context_window: number;
  utilization: number;
  estimated: boolean;
}

export const COST_PER_TOKEN_ESTIMATE = 9 / 1_000_000;

/** How full the context is: the one definition every reader uses (the fold, capacity checks, the dashboard). */
export function contextUtilization(contextTokens: number, contextWindow: number): number {
  if (!(contextWindow > 0)) return 0;
  return Math.min(1, Math.max(0, contextTokens / contextWindow));
}

export function measureCapacity(reading: UsageReading, profileWindow: number): CapacityMeasure | null {
  const window = reading.context_window ?? profileWindow;
  if (!(window > 0)) return null;
  if (reading.context_tokens !== null) {
    return {
      tokens: reading.context_tokens,
      context_window: window,
      utilization: contextUtilization(reading.context_tokens, window),
      estimated: false,
    };
  }
  if (reading.cost_usd !== null && reading.cost_usd > 0) {
    const tokens = Math.round(reading.cost_usd / COST_PER_TOKEN_ESTIMATE);
    return {
      tokens,
      context_window: window,
      utilization: contextUtilization(tokens, window),
      estimated: true,
    };
  }
  return null;
}

export type CapacityVerdict = 'ok' | 'warn' | 'pause';

export function capacityVerdict(m: CapacityMeasure | null, policy: CapacityPolicy): CapacityVerdict {
  if (!m) return 'ok';
  if (m.utilization >= policy.pauseAt) return 'pause';
  if (m.utilization >= policy.warnAt) return 'warn';
  return 'ok';
}
