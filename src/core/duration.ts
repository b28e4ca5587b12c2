import { invalidInput } from './errors.js';

const units: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Parses "500ms", "30s", "5m", "12h", "30d", "2w" (or a bare number of milliseconds) into milliseconds. */
export function parseDuration(text: string, what = 'duration'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(text);
  if (!m) throw invalidInput(`${what} "${text}" is not a duration; write it like 30s, 5m, 12h, 30d or 2w`);
  return Math.round(Number(m[1]) * (units[m[2] ?? 'ms'] ?? 1));
}
