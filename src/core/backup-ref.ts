/**
 * The names of the refs a checkpoint restore keeps the commits it takes off a branch on:
 * `refs/baton/backup/<workflow>/<UTC stamp>` (and `…-worktree` for the uncommitted changes a forced restore drops).
 */

/** The folder of a workflow's backup refs: `refs/baton/backup/<workflow>/`. */
export const backupRefPrefix = (workflowId: string) =>
  `refs/baton/backup/${workflowId.replace(/[^A-Za-z0-9._-]/g, '_')}/`;

/** The backup ref of a restore done at `at`. */
export const backupRefName = (workflowId: string, at: Date) =>
  `${backupRefPrefix(workflowId)}${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;

/** `text` with the time stamp of every backup ref it names replaced by `placeholder`. */
export const backupRefsUnstamped = (text: string, placeholder: string) =>
  text.replace(/(refs\/baton\/backup\/[^/\s]+\/)\d{8}T\d{6}Z/g, `$1${placeholder}`);
