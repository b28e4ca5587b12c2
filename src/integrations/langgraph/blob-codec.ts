import { BatonError } from '../../core/index.js';
import type { LgBlobRow, LgChannelRef } from '../../storage/langgraph-tables.js';

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

type Rope = Uint8Array[];

function ropeSlice(rope: Rope, start: number, end: number): Rope {
  const out: Rope = [];
  let at = 0;
  for (const seg of rope) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, seg.length);
    if (from < to) out.push(from === 0 && to === seg.length ? seg : seg.subarray(from, to));
    at += seg.length;
    if (at >= end) break;
  }
  return out;
}

const ropeLength = (rope: Rope) => rope.reduce((n, s) => n + s.length, 0);

export interface BlobValue {
  type: string;
  bytes: Uint8Array | null;
  /** How many deltas lie between this value and a whole one. */
  depth: number;
}

const key = (channel: string, version: string) => `${channel}\u0000${version}`;

/**
 * Rebuilds the values `refs` name from the blob rows (each wanted row plus the rows its deltas rest on). A ref
 * without a row is absent from the result (the channel had no stored value at that version).
 */
export function assembleBlobs(
  refs: readonly LgChannelRef[],
  rows: readonly LgBlobRow[],
): Map<string, BlobValue> {
  const byKey = new Map<string, LgBlobRow>();
  for (const r of rows) byKey.set(key(r.channel, r.version), r);
  const out = new Map<string, BlobValue>();
  for (const ref of refs) {
    const k = key(ref.channel, ref.version);
    const row = byKey.get(k);
    if (!row || out.has(k)) continue;
    const chain: LgBlobRow[] = [row];
    let cur = row;
    while (cur.base_version !== null) {
      const base = byKey.get(key(cur.channel, cur.base_version));
      if (!base) {
        throw new BatonError(
          'internal',
          `LangGraph channel "${cur.channel}" version ${cur.version} rests on version ${cur.base_version}, which is missing (was the thread deleted while it ran?)`,
        );
      }
      chain.push(base);
      cur = base;
    }
    let rope: Rope = cur.value ? [cur.value] : [];
    for (let i = chain.length - 2; i >= 0; i--) {
      const d = chain[i]!;
      const len = ropeLength(rope);
      rope = [
        ...ropeSlice(rope, 0, d.prefix_len),
        ...(d.value ? [d.value] : []),
        ...ropeSlice(rope, len - d.suffix_len, len),
      ];
    }
    const bytes = row.type === 'empty' ? null : rope.length === 1 ? rope[0]! : Buffer.concat(rope);
    out.set(k, { type: row.type, bytes, depth: chain.length - 1 });
  }
  return out;
}

export const blobKey = key;
