import {
  allFinished,
  BatonError,
  failuresNote,
  interrupt,
  unreportedCommits,
  workSpanOf,
  type TaskProduced,
} from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';
import type { SessionResult } from './agent-session.js';
import type { RunScope, TaskTurn } from './run-scope.js';

/** Says how a task's turn ended, in the run's report and as its `task.finished` event. */
export function finishTask(
  { report, emit, id }: RunScope,
  turn: TaskTurn,
  outcome: string,
  detail: string | null,
  produced?: TaskProduced,
) {
  report.tasks.push({ id: turn.taskId, outcome, detail, log: turn.log, ...(produced ? { produced } : {}) });
  // a task a usage limit or the agent's API failing cut short did not fail: the run stopped before it was done
  if (outcome !== 'done' && outcome !== 'usage_limit' && outcome !== 'api_error') report.failed = true;
  emit({
    event: 'task.finished',
    workflow_id: id,
    task_id: turn.taskId,
    outcome,
    detail,
    seconds: Math.round((Date.now() - turn.started) / 1000),
    log: turn.log,
    ...(produced ? { produced } : {}),
  });
}

/**
 * Fails the task with its cause, and says it with how many times in a row it failed (counted from its events:
 * `Task.failures`), what the next run does about that, and `then`: what to do next, when more than the run again.
 */
export async function failRunTask(
  scope: RunScope,
  turn: TaskTurn,
  outcome: string,
  cause: string,
  then: string | null = null,
) {
  const { state } = await scope.svc.failTask({ workflowId: scope.id }, turn.taskId, cause.slice(0, 500));
  const count = failuresNote(state.tasks.find((t) => t.id === turn.taskId)?.failures ?? 1);
  const detail = `${count ? `${cause} (${count})` : cause}${then ? `\n${then}` : ''}`;
  finishTask(scope, turn, outcome, detail);
}

/**
 * Baton lost the agent's host (it stopped answering, or answers without the run): the agent may still be working
 * there, or be done, and what it did after that was not read. A careful driver neither fails the task (its work
 * may be there) nor starts it again beside an agent that may still run: the workflow is interrupted (a crash
 * snapshot with the git state), the task stays in progress, and the run says which commits git has that no
 * agent's output reported, and how to go on. The next run is told of those commits.
 */
export async function lostAgent(scope: RunScope, turn: TaskTurn, result: SessionResult, row: ExecutorRow) {
  const { svc, id } = scope;
  const { taskId } = turn;
  const cause = (result.text ?? 'lost the agent').trim();
  const before = await svc.runner.load(id);
  const git = await svc.git.captureGitState(before.worktree, workSpanOf(before));
  const out = await svc.runner.run(
    id,
    (d) => {
      if (d.state.status === 'in_progress')
        interrupt(d, `lost the agent of ${taskId}: ${cause.split('\n')[0]}`, git);
    },
    { retry: true },
  );
  const found = unreportedCommits(out.state, git.state);
  const commits = found.commits.length
    ? `git has commits since the workflow began that no agent's output reported: ${found.commits.map((c) => `${c.hash} ${c.subject}`).join('; ')}${found.more_command ? ` (all of them: ${found.more_command})` : ''}`
    : 'git has no commit since the workflow began beyond those the agents reported';
  const at = (await svc.store.executors?.get(row.id)) ?? row;
  const next = `the workflow is interrupted and ${taskId} stays in progress: check the agent host ${at.endpoint ?? at.runtime} (its agent${at.pid ? `, pid ${at.pid} there,` : ''} may still be running), then \`baton run -w ${id}\` goes on with ${taskId}${found.commits.length ? ' (told of these commits)' : ''}, or \`baton task done ${taskId} -w ${id}\` if its work is complete`;
  finishTask(scope, turn, 'lost', [cause, commits, next].join('\n'));
}

/**
 * Completes the task the agent finished, with the pause `--max-tasks` asks for after it; a task something else
 * finished meanwhile (the agent's own MCP `complete_task`, `baton task done` by hand) is left as it is, the pause
 * taken all the same. Returns that status (`done`, `skipped`) when it was finished already, else null.
 */
export async function completeRunTask(
  svc: BatonService,
  id: string,
  taskId: string,
  summary: string | null,
  pauseAfter: { reason: string; trigger: 'task_complete' } | null,
): Promise<string | null> {
  try {
    await svc.completeTask({ workflowId: id }, taskId, summary, pauseAfter);
    return null;
  } catch (e) {
    if (!BatonError.isInstance(e) || e.code !== 'invalid_transition') throw e;
    const s = await svc.runner.load(id);
    const status = s.tasks.find((t) => t.id === taskId)?.status;
    if (status !== 'done' && status !== 'skipped') throw e;
    // the pause after the last task would pause a workflow that is over: none, as completeTask takes none then
    if (pauseAfter && s.status === 'in_progress' && !allFinished(s.tasks))
      await svc.pause({ workflowId: id }, { reason: pauseAfter.reason, trigger: pauseAfter.trigger });
    return status;
  }
}
