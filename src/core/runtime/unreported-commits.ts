import { doneCommits, type DoneCommit } from '../context/done-commits.js';
import { defaultLimits } from '../context/resume-context.js';
import type { GitState } from '../schemas/git-state.js';
import type { WorkflowState } from '../schemas/state.js';

/**
 * The commits git has since the workflow began that no agent's output reported (done-commits.ts's git-only ones,
 * the newest when there are many): the work of an agent Baton lost track of (its host restarted, its output was
 * never read), or commits made by hand. An agent that starts a task without the compiled context is told of them,
 * so it does not do that work again blindly.
 */
export function unreportedCommits(
  s: Pick<WorkflowState, 'side_effects'>,
  git: GitState | null,
): { commits: DoneCommit[]; more: number; more_command: string | null } {
  const done = doneCommits(s.side_effects ?? [], git, defaultLimits);
  return {
    commits: done.commits.filter((c) => c.git_only),
    more: done.more,
    more_command: done.more_command,
  };
}
