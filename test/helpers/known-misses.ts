/**
 * The one labelled commit a transcript shows only in a later `git log`: the session's ticket tool squash-merged its
 * pull request (darthzen-neuvector-t001-scaffold, Batch 8). Commits are read from what `git commit` (and cherry-pick,
 * merge, rebase...) print, never from a log, which lists commits the session did not make (docs/transcripts.md,
 * Progress): `npm run eval` counts it as missed, and the tests that hold commits at 100% leave it out by name.
 */
export const commitsOnlyInALog: ReadonlySet<string> = new Set(['423359d']);
