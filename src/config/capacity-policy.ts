import { defaultCapacityPolicy, type CapacityPolicy } from '../core/capacity.js';
import type { SettingReader } from './setting-reader.js';

/**
 * The capacity thresholds: warn_at and pause_at, ratios of the context window (defaults in core/capacity.ts). A
 * warning set at or past the pause would never be given, so it is refused, naming where both came from; a pause set at
 * or below the default warning, with no warning set, warns at four fifths of the pause instead.
 */
export function capacityPolicy(r: SettingReader): CapacityPolicy {
  const pauseAt = r.number('pauseAt', defaultCapacityPolicy.pauseAt, 0.01, 1);
  if (r.text('warnAt') === undefined)
    return {
      warnAt:
        defaultCapacityPolicy.warnAt < pauseAt
          ? defaultCapacityPolicy.warnAt
          : Math.round(pauseAt * 80) / 100,
      pauseAt,
    };
  const warnAt = r.number('warnAt', defaultCapacityPolicy.warnAt, 0.01, 1);
  if (warnAt >= pauseAt)
    throw r.invalid(
      'warnAt',
      `must be below pause-at, ${pauseAt} (${r.get('pauseAt').from}): the warning comes before the pause`,
    );
  return { warnAt, pauseAt };
}
