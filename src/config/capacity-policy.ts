import { defaultCapacityPolicy, type CapacityPolicy } from '../core/capacity.js';
import type { SettingReader } from './setting-reader.js';

/** The capacity thresholds: warn_at and pause_at, ratios of the context window (defaults in core/capacity.ts). */
export function capacityPolicy(r: SettingReader): CapacityPolicy {
  return {
    warnAt: r.number('warnAt', defaultCapacityPolicy.warnAt, 0.01, 1),
    pauseAt: r.number('pauseAt', defaultCapacityPolicy.pauseAt, 0.01, 1),
  };
}
