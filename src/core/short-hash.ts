/**
 * How many digits of a commit's hash people are shown (git's own short hash): the briefing, the resume warnings,
 * `baton status`, the recovery options and the restore all show a commit so, whatever length its record keeps (the
 * full hash when git gave it, the digits a transcript printed otherwise).
 */
export const SHORT_HASH_LENGTH = 7;

/** A commit's hash as people are shown it. */
export const shortHash = (hash: string): string => hash.slice(0, SHORT_HASH_LENGTH);
