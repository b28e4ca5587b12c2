/**
 * How many terminal columns text takes, and padding and cutting by that width: an East Asian wide or fullwidth
 * character (Hangul, Kana, CJK ideographs, fullwidth forms) and an emoji shown as a picture take two columns, a
 * combining mark, a variation selector and the characters an emoji sequence joins (ZWJ, skin tones) none, the rest
 * one. `String.length` counts UTF-16 units instead, so a Korean or Japanese title, or one with an emoji, put a text
 * table out of line. Ranges from Unicode's EastAsianWidth.txt (W and F); no Intl.Segmenter (loading it costs every
 * short command).
 */

const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo initials
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed, compat.
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x18aff], // Tangut, Khitan and ideographic symbols
  [0x1b000, 0x1b2ff], // Kana supplement and extensions, Nushu
  [0x1f200, 0x1f2ff], // enclosed ideographic supplement
  [0x20000, 0x2fffd], // CJK extensions B to F
  [0x30000, 0x3fffd], // CJK extensions G and on
];

const ZERO = /[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;
const PICTURE = /\p{Emoji_Presentation}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const SKIN_TONE = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const REGIONAL = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;
const ZWJ = 0x200d;
const VS16 = 0xfe0f;

function isWide(cp: number): boolean {
  for (const [lo, hi] of WIDE) {
    if (cp < lo) return false;
    if (cp <= hi) return true;
  }
  return false;
}

/**
 * `text` in the pieces a terminal shows as one (a character with the combining marks, selectors and joined emoji
 * after it), each with the columns it takes.
 */
function clusters(text: string): [string, number][] {
  const out: [string, number][] = [];
  let prev = '';
  let joined = false; // after a ZWJ: the next picture is part of the one before
  let flagHalf = false; // a first regional indicator: its pair makes one flag
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    let w: number;
    // a selector asking for a picture widens a pictograph shown as text by default (❤ U+2764)
    if (cp === VS16) w = PICTOGRAPH.test(prev) && !PICTURE.test(prev) ? 1 : 0;
    else if (ZERO.test(ch) || SKIN_TONE(cp) || (joined && PICTOGRAPH.test(ch)) || (flagHalf && REGIONAL(cp)))
      w = 0;
    else w = isWide(cp) || PICTURE.test(ch) || REGIONAL(cp) ? 2 : 1;
    const last = out.at(-1);
    if (last && (w === 0 || cp === VS16)) {
      last[0] += ch;
      last[1] += w;
    } else out.push([ch, w]);
    flagHalf = REGIONAL(cp) && !flagHalf;
    joined = cp === ZWJ;
    prev = ch;
  }
  return out;
}

/** The terminal columns `text` takes. */
export function displayWidth(text: string): number {
  let n = 0;
  for (const [, w] of clusters(text)) n += w;
  return n;
}

/** `text` padded with spaces to `width` columns (as `padEnd` does by length). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * `text` cut to at most `width` columns, `…` where it was cut: its end (a title), or with `from: 'start'` its start
 * (a path, whose end tells it apart). Never splits a character from its marks, nor an emoji sequence.
 */
export function cutToWidth(text: string, width: number, from: 'end' | 'start' = 'end'): string {
  if (displayWidth(text) <= width) return text;
  if (width < 1) return '';
  const parts = clusters(text);
  if (from === 'start') parts.reverse();
  const kept: string[] = [];
  let used = 0;
  for (const [piece, w] of parts) {
    if (used + w > width - 1) break;
    kept.push(piece);
    used += w;
  }
  // no space left dangling at the cut
  return from === 'start' ? `…${kept.reverse().join('').trimStart()}` : `${kept.join('').trimEnd()}…`;
}
