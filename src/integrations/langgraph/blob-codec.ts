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

export type Rope = Uint8Array[];

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

/**
 * A run of whole elements of a JSON array, as text without the brackets: `e1,e2,...`. The other fields are filled
 * by ValueLoader while one read lasts (a run belongs to the read that rebuilt it).
 */
export interface ItemRun {
  bytes: Uint8Array;
  text?: string;
  uses?: number;
  /** What the run revived to, once used twice; null when that was more than plain data. */
  template?: unknown[] | null;
}

/** A channel value rebuilt from its rows. */
export interface StoredValue {
  /** The serializer's type tag, or `empty` for a channel that has a version but no value. */
  type: string;
  rope: Rope;
  length: number;
  /**
   * When the value is a JSON array whose rows only ever appended elements: the runs of elements each row added,
   * oldest first (the array is their concatenation). Null otherwise.
   */
  items: ItemRun[] | null;
}

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const COMMA = 0x2c;
const isBlank = (bytes: Uint8Array) =>
  bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);

/** The element runs of a whole row: one run for `[...]`, none for an empty array, null for anything else. */
function wholeItems(type: string, value: Uint8Array | null): ItemRun[] | null {
  if (type !== 'json' || !value || value.length < 2) return null;
  if (value[0] !== OPEN || value[value.length - 1] !== CLOSE) return null;
  const inner = value.subarray(1, value.length - 1);
  return isBlank(inner) ? [] : [{ bytes: inner }];
}

/**
 * The element runs of a delta on `base`, when the delta only appends elements to the array: it keeps all of the
 * base but its closing bracket, adds `,e...` (or `e...` to an empty array) and ends with the bracket. Then the new
 * text is the base's elements, a comma, the added elements: each run parses on its own, as `[run]`.
 */
function appendedItems(row: LgBlobRow, base: StoredValue): ItemRun[] | null {
  const middle = row.value;
  if (!base.items || row.type !== base.type || !middle) return null;
  if (row.prefix_len !== base.length - 1 || row.suffix_len !== 1) return null;
  if (!base.items.length) return isBlank(middle) ? null : [{ bytes: middle }];
  if (middle[0] !== COMMA) return null;
  const added = middle.subarray(1);
  return isBlank(added) ? null : [...base.items, { bytes: added }];
}

const key = (channel: string, version: string) => `${channel}\u0000${version}`;

/**
 * Rebuilds the values `refs` name from the blob rows (each wanted row plus the rows its deltas rest on). A ref
 * without a row is absent from the result (the channel had no stored value at that version).
 */
export function assembleBlobs(
  refs: readonly LgChannelRef[],
  rows: readonly LgBlobRow[],
): Map<string, StoredValue> {
  const byKey = new Map<string, LgBlobRow>();
  for (const r of rows) byKey.set(key(r.channel, r.version), r);
  // Each row is rebuilt once: values of one channel share their bases (a list of many checkpoints walks the same
  // delta chains), so rebuilt values are kept by key and reused.
  const built = new Map<string, StoredValue>();
  const rebuild = (row: LgBlobRow): StoredValue => {
    const k = key(row.channel, row.version);
    const done = built.get(k);
    if (done) return done;
    let result: StoredValue;
    if (row.base_version === null) {
      result = {
        type: row.type,
        rope: row.value ? [row.value] : [],
        length: row.value?.length ?? 0,
        items: wholeItems(row.type, row.value),
      };
    } else {
      const baseRow = byKey.get(key(row.channel, row.base_version));
      if (!baseRow) {
        throw new BatonError(
          'internal',
          `LangGraph channel "${row.channel}" version ${row.version} rests on version ${row.base_version}, which is missing (was the thread deleted while it ran?)`,
        );
      }
      const base = rebuild(baseRow);
      const rope = [
        ...ropeSlice(base.rope, 0, row.prefix_len),
        ...(row.value ? [row.value] : []),
        ...ropeSlice(base.rope, base.length - row.suffix_len, base.length),
      ];
      result = { type: row.type, rope, length: ropeLength(rope), items: appendedItems(row, base) };
    }
    built.set(k, result);
    return result;
  };
  const out = new Map<string, StoredValue>();
  for (const ref of refs) {
    const k = key(ref.channel, ref.version);
    const row = byKey.get(k);
    if (row && !out.has(k)) out.set(k, rebuild(row));
  }
  return out;
}

/** The bytes of a value, in one piece. */
export const valueBytes = (v: StoredValue): Uint8Array =>
  v.rope.length === 1 ? v.rope[0]! : Buffer.concat(v.rope, v.length);

export const blobKey = key;
