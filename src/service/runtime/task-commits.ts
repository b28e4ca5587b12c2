import { recordSideEffect } from '../../core/index.js';
import type { BatonService } from '../baton-service.js';

/** Where a task's work begins in git: HEAD (null in a repository without commits) and when. */
export interface TaskStart {
  head: string | null;
  at: string;
}

/** HEAD now, before the task's agent starts (no HEAD outside a repository: nothing is read from git then). */
export async function taskStart(svc: BatonService, worktree: string): Promise<TaskStart> {
  const at = new Date().toISOString();
  const head = (await svc.git.captureGitState(worktree, null)).state?.commit_at_snapshot ?? null;
  return { head, at };
}

/**
 * A task that ended well committed what git has since it began: when the agent's output reported none of it (a
 * `command` agent prints no hashes), those commits go in the side-effect ledger as the task's, so a later prompt lists
 * them as done work rather than as commits nobody reported. The commits recorded.
 */
export async function recordTaskCommits(
  svc: BatonService,
  workflowId: string,
  taskId: string,
  worktree: string,
  start: TaskStart,
): Promise<number> {
  if (!start.head) return 0;
  const made = await svc.git.commitsSince(worktree, { commit: start.head, at: start.at });
  if (!made.listed.length) return 0;
  const { result } = await svc.runner.run(
    workflowId,
    (d) => {
      const reported = (d.state.side_effects ?? []).some((e) => e.kind === 'commit' && e.task_id === taskId);
      if (reported) return 0;
      for (const c of made.listed)
        recordSideEffect(d, {
          task_id: taskId,
          kind: 'commit',
          tool: 'git',
          summary: `${c.hash.slice(0, 12)} ${c.subject}`,
        });
      return made.listed.length;
    },
    { retry: true },
  );
  return result;
}
