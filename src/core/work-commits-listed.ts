/**
 * How many of the commits since a workflow began a git capture lists (the newest; the rest are counted). On its own,
 * without the git state's schemas, so the hook's entry (src/git/git.ts reads it) loads no schema.
 */
export const WORK_COMMITS_LISTED = 30;
