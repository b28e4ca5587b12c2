import { BatonError } from '../../core/index.js';
import type { LgBlobRead, LgChannelRef } from '../../storage/langgraph-tables.js';

type Rope = Uint8Array[];

/**
 * A run of whole elements of a JSON array: a whole row `[e1,...]` or an appended delta `,e1,...`, parsed as the
 * array `[e1,...]`. The other fields are filled by ValueLoader while one read lasts (a run belongs to the read
 * that rebuilt it).
 */
export interface ItemRun {
  source: Uint8Array | string;
  whole: boolean;
  /** The run as a JSON array text. */
  text?: string;
  uses?: number;
  /** What the run revived to, once used twice; null when that was more than plain data. */
  template?: unknown[] | null;
}

/** A channel value rebuilt from its rows. */
export interface StoredValue {
  /** The serializer's type tag, or `empty` for a channel that has a version but no value. */
  type: string;
  /** Its size in bytes. */
  length: number;
  /**
   * When the value is a JSON array whose rows only ever appended elements: the runs of elements each row added,
   * oldest first (the array is their concatenation). Null otherwise.
   */
  items: ItemRun[] | null;
  /** Its bytes, in segments (rebuilt on demand). */
  rope(): Rope;
}

const BLANK = /^[ \t\n\r]*$/;
const isBlank = (v: Uint8Array | string) =>
  typeof v === 'string'
    ? BLANK.test(v)
    : v.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
const charAt = (v: Uint8Array | string, i: number) => (typeof v === 'string' ? v.charCodeAt(i) : v[i]);
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const COMMA = 0x2c;

/** The element runs of a whole row: one run for `[...]`, none for an empty array, null for anything else. */
function wholeItems(row: LgBlobRead): ItemRun[] | null {
  const v = row.value;
  if (row.type !== 'json' || v === null || v.length < 2) return null;
  if (charAt(v, 0) !== OPEN || charAt(v, v.length - 1) !== CLOSE) return null;
  return isBlank(v.slice(1, -1)) ? [] : [{ source: v, whole: true }];
}

/**
 * The element runs of a delta on `base`, when the delta only appends elements to the array: it keeps all of the
 * base but its closing bracket, adds `,e...` and ends with the bracket. Then the new text is the base's elements,
 * a comma, the added elements: each run parses on its own.
 */
function appendedItems(row: LgBlobRead, base: StoredValue): ItemRun[] | null {
  const middle = row.value;
  if (!base.items?.length || row.type !== base.type || middle === null) return null;
  if (row.prefix_len !== base.length - 1 || row.suffix_len !== 1) return null;
  if (charAt(middle, 0) !== COMMA || isBlank(middle.slice(1))) return null;
  return [...base.items, { source: middle, whole: false }];
}

/** The bytes of a row; a row read as text is encoded back, which is exact for the UTF-8 the storage decoded. */
function rowBytes(row: LgBlobRead): Uint8Array {
  const v = row.value;
  if (v === null || typeof v !== 'string') return v ?? new Uint8Array();
  const bytes = Buffer.from(v, 'utf8');
  if (bytes.length !== row.size)
    throw new BatonError(
      'internal',
      `LangGraph channel "${row.channel}" version ${row.version} is not UTF-8`,
    );
  return bytes;
}

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

function lazy<T>(make: () => T): () => T {
  let done: { value: T } | undefined;
  return () => (done ??= { value: make() }).value;
}

const key = (channel: string, version: string) => `${channel}\u0000${version}`;

/**
 * Rebuilds the values `refs` name from the blob rows (each wanted row plus the rows its deltas rest on). A ref
 * without a row is absent from the result (the channel had no stored value at that version).
 */
export function assembleBlobs(
  refs: readonly LgChannelRef[],
  rows: readonly LgBlobRead[],
): Map<string, StoredValue> {
  const byKey = new Map<string, LgBlobRead>();
  for (const r of rows) byKey.set(key(r.channel, r.version), r);
  // Each row is rebuilt once: values of one channel share their bases (a list of many checkpoints walks the same
  // delta chains), so rebuilt values are kept by key and reused.
  const built = new Map<string, StoredValue>();
  const rebuild = (row: LgBlobRead): StoredValue => {
    const k = key(row.channel, row.version);
    const done = built.get(k);
    if (done) return done;
    let result: StoredValue;
    if (row.base_version === null) {
      const rope = lazy(() => (row.value === null ? [] : [rowBytes(row)]));
      result = { type: row.type, length: row.size, items: wholeItems(row), rope };
    } else {
      const baseRow = byKey.get(key(row.channel, row.base_version));
      if (!baseRow) {
        throw new BatonError(
          'internal',
          `LangGraph channel "${row.channel}" version ${row.version} rests on version ${row.base_version}, which is missing (was the thread deleted while it ran?)`,
        );
      }
      const base = rebuild(baseRow);
      const rope = lazy(() => [
        ...ropeSlice(base.rope(), 0, row.prefix_len),
        ...(row.value === null ? [] : [rowBytes(row)]),
        ...ropeSlice(base.rope(), base.length - row.suffix_len, base.length),
      ]);
      const length = row.prefix_len + row.size + row.suffix_len;
      result = { type: row.type, length, items: appendedItems(row, base), rope };
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
export function valueBytes(v: StoredValue): Uint8Array {
  const rope = v.rope();
  return rope.length === 1 ? rope[0]! : Buffer.concat(rope, v.length);
}

export const blobKey = key;
