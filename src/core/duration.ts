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

/** A span as the CLI shows it: "0m05s", "42m10s", "3h05m" (hours go on past a day: "50h00m"). */
export function formatSpan(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** How long ago something was, as the CLI says it: "just now" within a second, else "0m05s ago", "3h05m ago". */
export function formatAgo(ms: number): string {
  return ms < 1000 ? 'just now' : `${formatSpan(ms)} ago`;
}
