import type { ToolOutcome } from './call-text.js';
import { madeCommits, type MadeCommit } from './git-commits.js';
import { branchesMade } from './git-branches.js';
import { pushSummaries } from './git-pushes.js';
import { mergedPrs, openedPrs } from './pull-requests.js';

/** An effect of a call on git and its hosts other than a commit, as the side-effect ledger says it. */
export interface GitEffect {
  kind: 'push' | 'pr' | 'other';
  summary: string;
}

/**
 * What one call did to git and its hosts, as a transcript's import and `baton run` both record it: the commits it
 * made (madeCommits; whether one is new, and which commit an amend replaced, is the caller's to know), then its
 * pushes, the branches and worktrees it made or removed (kind `other`), the pull requests it opened (each address
 * once: `prsSeen` holds those said before, and gets this call's) and those it merged.
 */
export function gitEffects(
  call: ToolOutcome,
  prsSeen: Set<string> = new Set(),
): { commits: MadeCommit[]; effects: GitEffect[] } {
  const effects: GitEffect[] = pushSummaries(call).map((summary) => ({ kind: 'push', summary }));
  for (const summary of branchesMade(call)) effects.push({ kind: 'other', summary });
  for (const url of openedPrs(call)) {
    if (prsSeen.has(url)) continue;
    prsSeen.add(url);
    effects.push({ kind: 'pr', summary: url });
  }
  for (const summary of mergedPrs(call)) effects.push({ kind: 'pr', summary });
  return { commits: madeCommits(call), effects };
}
