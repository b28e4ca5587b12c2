import { commitSummary, recordSideEffect, type UsageTotals } from '../../core/index.js';
import type { BatonService } from '../baton-service.js';

/**
 * Where a task's work begins: HEAD in git (null in a repository without commits), when, and the workflow's usage
 * totals then (what the task's agent used is what they grew by).
 */
export interface TaskStart {
  head: string | null;
  at: string;
  usage: UsageTotals | null;
}

/** HEAD now, before the task's agent starts (no HEAD outside a repository: nothing is read from git then). */
export async function taskStart(
  svc: BatonService,
  s: { worktree: string; usage_total?: UsageTotals | undefined },
): Promise<TaskStart> {
  const at = new Date().toISOString();
  const head = (await svc.git.captureGitState(s.worktree, null)).state?.commit_at_snapshot ?? null;
  return { head, at, usage: s.usage_total ?? null };
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
  log: (line: string) => void,
): Promise<number> {
  if (!start.head) return 0;
  try {
    // made since the task began, on this branch: not commits a pull or a merge brought in (older, or `elsewhere`)
    const span = { commit: start.head, at: start.at, until: null };
    const work = (await svc.git.captureGitState(worktree, span)).state?.work_commits;
    const made = (work?.listed ?? []).filter((c) => !c.elsewhere);
    if (!made.length) return 0;
    return await record(svc, workflowId, taskId, made);
  } catch (e) {
    // the task is done all the same: its commits stay git's to tell (listed as unreported)
    log(`task ${taskId}: its commits were not read from git: ${(e as Error).message}`);
    return 0;
  }
}

async function record(
  svc: BatonService,
  workflowId: string,
  taskId: string,
  made: readonly { hash: string; subject: string }[],
): Promise<number> {
  const { result } = await svc.runner.run(
    workflowId,
    (d) => {
      const reported = (d.state.side_effects ?? []).some((e) => e.kind === 'commit' && e.task_id === taskId);
      if (reported) return 0;
      for (const c of made)
        recordSideEffect(d, {
          task_id: taskId,
          kind: 'commit',
          tool: 'git',
          summary: commitSummary(c.hash.slice(0, 12), c.subject),
        });
      return made.length;
    },
    { retry: true },
  );
  return result;
}
