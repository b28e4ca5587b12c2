/**
 * How many digits of a commit's hash people are shown (git's own short hash): the briefing, the resume warnings,
 * `baton status`, the recovery options and the restore all show a commit so, whatever length its record keeps (the
 * full hash when git gave it, the digits a transcript printed otherwise).
 */
export const SHORT_HASH_LENGTH = 7;

/** A commit's hash as people are shown it. */
export const shortHash = (hash: string): string => hash.slice(0, SHORT_HASH_LENGTH);

/** One hash abbreviates the other (a transcript shows 7 digits, a capture keeps them all). */
export const sameHash = (a: string, b: string): boolean =>
  a.length >= SHORT_HASH_LENGTH && b.length >= SHORT_HASH_LENGTH && (a.startsWith(b) || b.startsWith(a));
