import { crc32 } from 'node:zlib';
import type { BatonEvent } from '../core/index.js';

/**
 * One line of a run folder's event log: the stored event's JSON with its CRC-32 as a last key,
 * `{"v":1,...,"data":{...},"crc32":"1a2b3c4d"}`. The checksum covers the event's JSON exactly as it stands without
 * that key (`{"v":1,...,"data":{...}}`, UTF-8), so damage is detected instead of guessed, and `jq` still reads every
 * line. Lines written before checksums existed have no `crc32` key and are read as they stand.
 */
export const CHECKSUM_KEY = 'crc32';

const hex = (n: number) => n.toString(16).padStart(8, '0');
const SUFFIX = /,"crc32":"([0-9a-f]{8})"\}$/;

/** The line for an event (without the newline). */
export function eventLine(event: BatonEvent): string {
  const json = JSON.stringify(event);
  return `${json.slice(0, -1)},"${CHECKSUM_KEY}":"${hex(crc32(json))}"}`;
}

/** The event keys of a line written before checksums: such a line must have exactly these at its top level. */
const ENVELOPE_KEYS = ['v', 'workflow_id', 'seq', 'at', 'actor', 'session_number', 'task_id', 'type', 'data'];

export type LineCheck =
  /** The checksum matches: `json` is the event exactly as it was written. */
  | { kind: 'verified'; json: string }
  /** A line without a checksum (an earlier version's): `json` is the line. */
  | { kind: 'unchecked'; json: string }
  /** The line was damaged: its checksum does not match, or its checksum key itself was hit. */
  | { kind: 'damaged'; problem: string };

/** Checks one line (trimmed, without the newline). Never throws; the JSON is not parsed here. */
export function checkLine(line: string): LineCheck {
  const m = SUFFIX.exec(line);
  if (m) {
    const json = `${line.slice(0, m.index)}}`;
    const sum = hex(crc32(json));
    return sum === m[1]
      ? { kind: 'verified', json }
      : {
          kind: 'damaged',
          problem: `checksum mismatch (crc32 ${sum}, the line says ${m[1]}): the line was damaged`,
        };
  }
  return { kind: 'unchecked', json: line };
}

/**
 * Whether a parsed line without a checksum has the shape an earlier version wrote: exactly the event's keys. A line
 * of this version whose `crc32` key was hit (a flipped letter in the key) parses with a stray key and is refused.
 */
export function looksUnchecked(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const extra = Object.keys(value).filter((k) => !ENVELOPE_KEYS.includes(k));
  return extra.length
    ? `unknown field ${JSON.stringify(extra[0])} and no valid checksum: the line was damaged`
    : null;
}
