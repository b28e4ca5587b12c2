/** Normalised word-set similarity: drafts that repeat what is known, agent task items reworded between calls. */

const stop = new Set([
  'the',
  'a',
  'an',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'with',
  'is',
  'it',
  'be',
  'by',
  'as',
]);

export function words(text: string): Set<string> {
  const tokens = text
    .toLowerCase()
    .replace(/[`'"*_()[\]{}<>,.;:!?]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1 && !stop.has(w));
  return new Set(tokens);
}

/** Jaccard similarity of the word sets, 0..1; two empty texts are identical. */
export function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / (wa.size + wb.size - shared);
}

/** Whether `whole` holds every word of `part` (which has one at least): "Write tests for all four operations" holds "Write tests". */
export function holdsWords(whole: string, part: string): boolean {
  const wp = numbered(part);
  if (wp.size === 0) return false;
  const ww = numbered(whole);
  return [...wp].every((w) => ww.has(w));
}

/** The words, with single digits kept: "step 3" does not hold "step 1". */
const numbered = (text: string) => new Set([...words(text), ...(text.match(/\b\d\b/g) ?? [])]);

export const duplicateThreshold = 0.6;

/** Keep the items whose key is not similar to any known text nor to an earlier kept item. */
export function dedupe<T>(
  items: readonly T[],
  key: (item: T) => string,
  known: readonly string[] = [],
  threshold = duplicateThreshold,
): T[] {
  const seen = [...known];
  const kept: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.some((s) => similarity(s, k) >= threshold)) continue;
    seen.push(k);
    kept.push(item);
  }
  return kept;
}
