/**
 * A branch as people are shown it: the dashboard's copy of src/core/branch-change.ts `branchInWords` (web/ may import
 * only types from src/), checked against the core's by test/lint/web-branch-words.test.ts. git's `(detached)` (and
 * `HEAD`) is no branch: the CLI says "a detached HEAD", and so does the dashboard.
 */
export const branchInWords = (branch: string): string =>
  branch === '(detached)' || branch === 'HEAD' ? 'a detached HEAD' : branch;
