/** Percentiles of a list of numbers (milliseconds). */
export function percentiles(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99), n: s.length };
}

export const fmt = (n, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

/** Runs `fn` repeatedly for about `seconds` and returns how many runs per second it managed. */
export async function rate(fn, seconds) {
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) n += await fn();
  return n / ((performance.now() - start) / 1000);
}
