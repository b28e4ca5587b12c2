import type { GitConflict } from './schemas/git-state.js';

/** How many unmerged files the words name; the rest are counted. */
const NAMED = 5;

/** How the operation in progress is finished or given up, once its conflicts are resolved. */
const goOn: Record<NonNullable<GitConflict['operation']>, string> = {
  merge: '`git commit` concludes it, `git merge --abort` gives it up',
  rebase: '`git rebase --continue` goes on with it, `git rebase --abort` gives it up',
  'cherry-pick': '`git cherry-pick --continue` goes on with it, `git cherry-pick --abort` gives it up',
  revert: '`git revert --continue` goes on with it, `git revert --abort` gives it up',
};

/**
 * A conflict in words, said before anything else about the worktree: the files still hold conflict markers, and an
 * agent told only "uncommitted changes" may commit them. "unresolved merge conflict in f.txt: resolve the markers
 * before committing (a rebase is in progress: ...)". The one way the briefing, `baton status`, a snapshot and the
 * dashboard say it.
 */
export function conflictWords(c: GitConflict): string {
  const op = c.operation ? `a ${c.operation} is in progress: ${goOn[c.operation]}` : null;
  if (!c.unmerged.length) return op ?? '';
  const named = c.unmerged.slice(0, NAMED).join(', ');
  const more = c.unmerged.length > NAMED ? ` and ${c.unmerged.length - NAMED} more` : '';
  return `unresolved merge conflict in ${named}${more}: resolve the markers before committing (\`git add\` marks a file resolved)${op ? `; ${op}` : ''}`;
}
