/** A delta of `next` against `base`: next = base[0, prefix) + middle + base[base.length - suffix, base.length). */
export interface Delta {
  prefix: number;
  suffix: number;
  middle: Uint8Array;
}

const CHUNK = 16_384;
/** Smaller values are stored whole: a delta would save nothing worth a join. */
const MIN_DELTA_BYTES = 256;

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // memcmp a chunk at a time, then byte by byte inside the first chunk that differs
  while (i + CHUNK <= n && Buffer.compare(a.subarray(i, i + CHUNK), b.subarray(i, i + CHUNK)) === 0)
    i += CHUNK;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: Uint8Array, b: Uint8Array, limit: number): number {
  let i = 0;
  while (i < limit && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/**
 * The delta of `next` against `base` when it is worth storing (at most half of `next`), else null. Values that
 * grow at the end or change in one place (an appended message, a bumped counter) cost only what changed.
 */
export function encodeDelta(base: Uint8Array, next: Uint8Array): Delta | null {
  if (next.length < MIN_DELTA_BYTES) return null;
  const prefix = commonPrefix(base, next);
  const suffix = commonSuffix(base, next, Math.min(base.length, next.length) - prefix);
  const middle = next.subarray(prefix, next.length - suffix);
  return middle.length * 2 <= next.length ? { prefix, suffix, middle } : null;
}
