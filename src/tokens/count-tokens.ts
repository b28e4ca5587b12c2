import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The vocabulary: `vendor/` at the package root, two levels above `src/tokens/`, `dist/tokens/` and the CLI bundle in `dist/bin/`. */
const VOCABULARY = '../../vendor/o200k_base.cjs';

/**
 * The vocabulary file's object, read as the JSON it is (`module.exports = {...};`, js-tiktoken's file byte for byte)
 * rather than required: compiling its 2.3 MB as JavaScript took about twice as long as reading and parsing its JSON.
 * It is ASCII (its pattern's Unicode classes are escapes), which latin1 reads the cheapest.
 */
function readVocabulary(): Vocabulary {
  const text = readFileSync(fileURLToPath(new URL(VOCABULARY, import.meta.url)), 'latin1');
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as Vocabulary;
}

interface Vocabulary {
  pat_str: string;
  /** Lines of `<first token> <rank of the first> <token> <token>...`, tokens in base64, ranks consecutive. */
  bpe_ranks: string;
}

/** The value of each base64 digit, by its character code. */
const DIGITS = (() => {
  const digits = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) digits[alphabet.charCodeAt(i)] = i;
  return digits;
})();

/** How many pieces' counts a counter keeps (`O200kCounter.known`): a few MB at most. */
const KNOWN_PIECES = 50_000;

/** FNV-1a, one byte at a time: the same value for a token's bytes read from the vocabulary and from a piece. */
const OFFSET = 0x811c9dc5 | 0;
const mix = (hash: number, byte: number) => Math.imul(hash ^ byte, 0x01000193);

/**
 * Counts o200k_base tokens exactly as tiktoken does (the pre-tokenizing pattern, then byte-pair merges, lowest rank
 * first, leftmost on ties), special tokens counted as ordinary text. A piece is kept as its bytes read as latin1, so
 * its sub-ranges are plain index ranges.
 *
 * The 200,000 tokens are not decoded into strings of a Map: that took 200-400 ms of each `baton context` (a string
 * and a Buffer per token, and their garbage). They stay where they are in the vocabulary's text, found through a
 * hash table of their bytes (open addressing, typed arrays), and decoded from base64 only to be compared.
 */
class O200kCounter {
  private readonly text: string;
  /** Token t is the base64 text[starts[t], ends[t]), its rank ranks[t], the hash of its bytes hashes[t]. */
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly ranks: Int32Array;
  private readonly hashes: Int32Array;
  /** t + 1 for token t at the slot its hash picks (or a later one, the next free), 0 for a free slot. */
  private readonly slots: Int32Array;
  /** Room for the bytes of the longest token. */
  private readonly bytes: Uint8Array;
  private readonly pattern: RegExp;

  constructor(vocabulary: Vocabulary) {
    const text = vocabulary.bpe_ranks;
    this.text = text;
    let room = 1;
    for (let at = text.indexOf(' '); at >= 0; at = text.indexOf(' ', at + 1)) room++;
    this.starts = new Int32Array(room);
    this.ends = new Int32Array(room);
    this.ranks = new Int32Array(room);
    this.hashes = new Int32Array(room);
    let size = 1;
    while (size < room * 2) size *= 2;
    this.slots = new Int32Array(size);
    let longest = 0;
    let count = 0;
    // lines of `<first token> <rank of the first> <token> <token>...`, as `split('\n')` and `split(' ')` read them
    for (let line = 0; line <= text.length;) {
      let end = text.indexOf('\n', line);
      if (end < 0) end = text.length;
      const firstEnd = fieldEnd(text, line, end);
      const rankEnd = firstEnd < end ? fieldEnd(text, firstEnd + 1, end) : end;
      const first = Number.parseInt(firstEnd < end ? text.slice(firstEnd + 1, rankEnd) : '', 10);
      for (let start = rankEnd + 1, rank = first; start <= end; rank++) {
        const stop = fieldEnd(text, start, end);
        this.starts[count] = start;
        this.ends[count] = stop;
        this.ranks[count] = rank;
        longest = Math.max(longest, stop - start);
        count++;
        start = stop + 1;
      }
      line = end + 1;
    }
    this.bytes = new Uint8Array(Math.ceil((longest * 3) / 4));
    for (let t = 0; t < count; t++) this.add(t);
    this.pattern = new RegExp(vocabulary.pat_str, 'gu');
  }

  /**
   * The count of each piece met before (words, spaces, punctuation: the same few thousand make up most texts): fitting
   * a context to its budget counts its parts again at each try, and hashing and merging a piece again cost most of
   * that. Emptied when full, so a long-lived process keeps it bounded.
   */
  private readonly known = new Map<string, number>();

  count(text: string): number {
    let tokens = 0;
    for (const match of text.matchAll(this.pattern)) {
      let n = this.known.get(match[0]);
      if (n === undefined) {
        const piece = Buffer.from(match[0], 'utf8').toString('latin1');
        n = this.rank(piece, 0, piece.length) >= 0 ? 1 : this.merged(piece);
        if (this.known.size >= KNOWN_PIECES) this.known.clear();
        this.known.set(match[0], n);
      }
      tokens += n;
    }
    return tokens;
  }

  /** How many tokens byte-pair merging leaves of a piece that is not itself a token. */
  private merged(piece: string): number {
    const bounds = Array.from({ length: piece.length + 1 }, (_, i) => i);
    while (bounds.length > 2) {
      let best = Infinity;
      let at = -1;
      for (let i = 0; i + 2 < bounds.length; i++) {
        const rank = this.rank(piece, bounds[i]!, bounds[i + 2]!);
        if (rank >= 0 && rank < best) {
          best = rank;
          at = i;
        }
      }
      if (at < 0) break;
      bounds.splice(at + 1, 1);
    }
    return bounds.length - 1;
  }

  /** The rank of the token whose bytes are the latin1 characters piece[from, to), -1 when none is. */
  private rank(piece: string, from: number, to: number): number {
    if (to - from > this.bytes.length) return -1;
    let hash = OFFSET;
    for (let i = from; i < to; i++) hash = mix(hash, piece.charCodeAt(i));
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const t = this.slots[slot]! - 1;
      if (t < 0) return -1;
      if (this.hashes[t] !== hash || this.decode(t) !== to - from) continue;
      let same = true;
      for (let i = 0; same && i < to - from; i++) same = this.bytes[i] === piece.charCodeAt(from + i);
      if (same) return this.ranks[t]!;
    }
  }

  /** Puts token t in the table; a later token with the bytes of an earlier one takes its place, as in a Map. */
  private add(t: number): void {
    const length = this.decode(t);
    let hash = OFFSET;
    for (let i = 0; i < length; i++) hash = mix(hash, this.bytes[i]!);
    this.hashes[t] = hash;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const other = this.slots[slot]! - 1;
      if (other < 0 || (this.hashes[other] === hash && this.sameBytes(t, other))) {
        this.slots[slot] = t + 1;
        return;
      }
    }
  }

  /** Whether tokens a and b are the same bytes. */
  private sameBytes(a: number, b: number): boolean {
    const length = this.decode(a);
    const copy = this.bytes.slice(0, length);
    return this.decode(b) === length && copy.every((byte, i) => byte === this.bytes[i]);
  }

  /** Decodes token t's base64 into `bytes`: how many there are. */
  private decode(t: number): number {
    let length = 0;
    let bits = 0;
    let value = 0;
    for (let i = this.starts[t]!; i < this.ends[t]!; i++) {
      const digit = DIGITS[this.text.charCodeAt(i)] ?? -1;
      if (digit < 0) continue;
      value = ((value << 6) | digit) & 0xffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        this.bytes[length++] = (value >> bits) & 0xff;
      }
    }
    return length;
  }
}

/** Where the field that starts at `from` ends: the next space, or the line's end. */
function fieldEnd(text: string, from: number, lineEnd: number): number {
  const space = text.indexOf(' ', from);
  return space < 0 || space > lineEnd ? lineEnd : space;
}

let counter: O200kCounter | null = null;

/**
 * Counts tokens with a real BPE tokenizer: o200k_base, whose vocabulary ships in `vendor/` (no download). Claude's own
 * tokenizer is not published; o200k counts are within a few percent of it on English and code, which is what a budget
 * needs. The vocabulary (2.3 MB) is read on the first call only, so commands that compile no context never load it.
 */
export function countTokens(text: string): number {
  counter ??= new O200kCounter(readVocabulary());
  return counter.count(text);
}
