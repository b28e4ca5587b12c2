/**
 * A commit's hash as people are shown it: the dashboard's copy of src/core/short-hash.ts (web/ may import only
 * types from src/), checked against the core's by test/lint/web-short-hash.test.ts. A missing hash shows `missing`.
 */
export const shortHash = (hash: string | null | undefined, missing = '-'): string =>
  hash ? hash.slice(0, 7) : missing;
