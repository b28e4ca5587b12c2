import { defaultCapacityPolicy, type CapacityPolicy } from '../core/capacity.js';
import type { SettingReader } from './setting-reader.js';

/**
 * The capacity thresholds: warn_at and pause_at, ratios of the context window (defaults in core/capacity.ts); a
 * warning at or past the pause would never be given, so it is refused.
 */
export function capacityPolicy(r: SettingReader): CapacityPolicy {
  const warnAt = r.number('warnAt', defaultCapacityPolicy.warnAt, 0.01, 1);
  const pauseAt = r.number('pauseAt', defaultCapacityPolicy.pauseAt, 0.01, 1);
  if (warnAt >= pauseAt)
    throw r.invalid(
      'warnAt',
      `must be below the pause threshold (${pauseAt}): the warning comes before the pause`,
    );
  return { warnAt, pauseAt };
}
