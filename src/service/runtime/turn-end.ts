import { clip } from '../../core/clip.js';
import { roughTokens } from '../../core/rough-tokens.js';
import {
  counted,
  cutOffOf,
  freshSessionTakesOver,
  isDeadToken,
  persistsWords,
  taskProduced,
  testsLeftFailing,
  testsLeftFailingWords,
  transientApiError,
  trimHistory,
  type Task,
} from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import { HUNG, type SessionResult } from './agent-session.js';
import { interruptForApiError } from './api-error-wait.js';
import { STALL_RETRIES, stopperOf } from './run-options.js';
import type { NextTurn, RunMemory, RunScope, TaskTurn } from './run-scope.js';
import { resumeWorkflow } from './session-start.js';
import { recordTaskCommits } from './task-commits.js';
import { completeRunTask, failRunTask, finishTask, lostAgent } from './task-outcome.js';
import { pauseForUsageLimit } from './usage-limit-wait.js';

/** A task's turn that ended: its agent's result, and where it ran. */
export interface EndedTurn extends TaskTurn {
  task: Task;
  result: SessionResult;
  row: ExecutorRow;
  /** The workflow's worktree, where the task's commits are read from git. */
  worktree: string;
}

/**
 * Judges how a task's turn ended and acts on it: stopped by Baton, its agent lost, hung (it goes on, at most
 * `STALL_RETRIES` times), done (unless it left its tests failing: failed), stopped by a usage limit or an API failure
 * (waited out with --auto-resume), its session full or its own resume failed (a fresh session takes over), or failed.
 * Sets how the next turn starts (`next`); says whether the run goes on with its next turn or stops here.
 */
export async function endTurn(
  scope: RunScope,
  next: NextTurn,
  memory: RunMemory,
  turn: EndedTurn,
): Promise<'next' | 'stop'> {
  const { svc, id, o, report, say } = scope;
  const { task, result } = turn;
  if (result.stopped_by) {
    // Stopped by Baton itself (a pause, possibly forced, or a takeover): the task stays in progress. Said once:
    // as a progress note where progress is shown (`baton run`), else in the runner's log (`baton serve`).
    say(`task ${task.id} stopped: ${result.stopped_by}`);
    // a pause forced meanwhile took its snapshot while the agent still ran: the agent's last words (the call it
    // was cut off in) were recorded only once its output ended, and the next session is handed that snapshot
    await svc.retakePauseSnapshot({ workflowId: id });
    next.token = null;
    return 'next';
  }
  if (result.outcome === 'lost') {
    await lostAgent(scope, turn, result, turn.row);
    next.token = null;
    return 'next';
  }
  if (result.stalled && (memory.stalls.get(task.id) ?? 0) < STALL_RETRIES) {
    memory.stalls.set(task.id, (memory.stalls.get(task.id) ?? 0) + 1);
    // the conversation goes on where it hung (its own session), else a new one starts with the compiled context
    next.token = o.profile.supports_session_resume ? (result.session_id ?? next.token) : null;
    next.fallback = next.token ? null : 'the agent hung';
    const now = await svc.runner.load(id);
    next.resumeContext = next.token ? null : (await svc.queries.context(now)).markdown;
    next.history = next.token ? [] : trimHistory(result.steps, o.historyBudget, roughTokens);
    // told, as after a crash, that it hung and where (its last words, the call it was in), and what git has since
    next.cutOff = next.token
      ? cutOffOf(now, { what: result.stalled, since: new Date(turn.started).toISOString() })
      : null;
    const how = next.token ? 'in its own session' : 'in a new driver session with the compiled context';
    say(
      `task ${task.id}: ${result.stalled}; going on ${how} (${memory.stalls.get(task.id)} of ${STALL_RETRIES})`,
    );
    return 'next';
  }
  const resumedAgent = next.token !== null;
  next.fallback = null;
  next.history = [];
  // A turn that ended well on a failing test run did not do its task (its words may say so: "I could not get the
  // test to pass"): it fails, that run named, and the run stops there rather than build on it. A task whose work
  // is the failing test (the red step) is done with it red.
  const left =
    result.outcome === 'success'
      ? testsLeftFailing(await svc.runner.load(id), task, new Date(turn.started).toISOString())
      : null;
  if (left) {
    const words = result.text?.trim() ? `; its last words: "${clip(result.text.trim(), 200)}"` : '';
    const cause = `its turn ended with its tests failing: ${testsLeftFailingWords(left)}${words}`;
    const then = `the next run tells its agent they fail; if ${task.id} was meant to leave them failing (a red step), \`baton task done ${task.id} -w ${id}\` takes it as done`;
    await failRunTask(scope, turn, 'tests_failing', cause, then);
    memory.failedHere.add(task.id);
    next.token = null;
    return 'next';
  }
  if (result.outcome === 'success') {
    await taskDone(scope, next, memory, turn);
    return 'next';
  }
  if (result.outcome === 'usage_limit') {
    const limit = await pauseForUsageLimit(svc, id, result, {
      autoResume: o.autoResume && memory.waits.mayStartSession(report.sessions, o.maxSessions),
      waits: memory.waits,
      signal: o.signal,
      stopper: stopperOf(o),
      log: scope.log,
      emit: scope.emit,
    });
    report.usage_limit = limit.report;
    if (limit.stopped) {
      // the task cut short is said with the others: not failed, in progress until the run goes on
      const detail = `cut off by the usage limit: ${task.id} stays in progress, and the next run goes on with it`;
      finishTask(scope, turn, 'usage_limit', detail);
      report.stopped = limit.stopped;
      return 'stop';
    }
    await resumeWorkflow(scope, next, 'usage_limit');
    report.sessions++;
    next.token = null;
    return 'next';
  }
  if (result.outcome === 'error' && o.profile.adapter !== 'command' && transientApiError(result.text)) {
    const api = await interruptForApiError(svc, id, task.id, result.text ?? '', {
      autoResume: o.autoResume,
      waits: memory.waits,
      signal: o.signal,
      say,
    });
    if (api.waitedMs !== null) {
      // stopped while waiting: the loop's start says so, the workflow left interrupted for the next run
      if (o.signal?.aborted) return 'next';
      await resumeWorkflow(scope, next, 'interrupted');
      report.sessions++;
      return 'next';
    }
    const detail = `cut off by an API error (${api.words}): it stays in progress, and the next run goes on with it in the agent's own session`;
    finishTask(scope, turn, 'api_error', detail);
    report.api_error = api.words;
    report.stopped = o.autoResume
      ? persistsWords(`the agent's API failure (${api.words})`, memory.waits.waits, memory.waits.waitedMs)
      : `the agent's API failed (${api.words})`;
    return 'stop';
  }
  // The agent's own resume failed when it could not find its session, or ended before doing anything; one that
  // resumed and then failed at the task failed the task (run again, it would redo what it did: commits, pushes).
  // An agent that hung again after its retries fails the task with that cause (whatever its exit said).
  const ownResumeFailed =
    resumedAgent &&
    result.outcome !== 'killed' &&
    !result.stalled &&
    (isDeadToken(result.text) || result.steps.length === 0);
  if (
    !result.stalled &&
    (result.outcome === 'context_full' || ownResumeFailed) &&
    report.fallbacks.length < 3
  ) {
    const fallback =
      result.outcome === 'context_full'
        ? 'context full'
        : `the agent's own resume failed: ${(result.text ?? '').slice(0, 200)}`;
    next.fallback = fallback;
    report.fallbacks.push(fallback);
    next.token = null;
    // what the full session left (its error, the pause its context asked for) is over once a fresh one takes over
    const over =
      result.outcome === 'context_full'
        ? await svc.runner.run(id, (d) => freshSessionTakesOver(d, task.id), { retry: true })
        : null;
    const state = over?.state ?? (await svc.runner.load(id));
    next.resumeContext = (await svc.queries.context(state)).markdown;
    next.history = trimHistory(result.steps, o.historyBudget, roughTokens);
    const withdrawn = over?.result.withdrawn;
    scope.log(
      `task ${task.id}: ${fallback}; continuing in a new driver session with the compiled context${withdrawn ? ` (the pause its full context asked for, ${withdrawn}, is withdrawn: the new session starts nearly empty)` : ''}`,
    );
    return 'next';
  }
  // a failure always says how it ended (followAgent): the agent's error, its standard error, its exit
  await failRunTask(scope, turn, result.outcome, (result.text ?? '').trim());
  memory.failedHere.add(task.id);
  next.token = null;
  return 'next';
}

/**
 * The task's turn ended well: the task is done (the pause `--max-tasks` asks for taken with it), with the commits git
 * has for it and the hangs it got past, and the next one goes on in the same agent session.
 */
async function taskDone(scope: RunScope, next: NextTurn, memory: RunMemory, turn: EndedTurn) {
  const { svc, id, o, log } = scope;
  const { task, result } = turn;
  next.token = o.profile.supports_session_resume ? result.session_id : null;
  next.resumeContext = null;
  memory.done++;
  memory.waits.taskDone();
  // what it committed, from git, when its output reported none of it (a `command` agent's)
  const start = memory.begun.get(task.id);
  if (start) await recordTaskCommits(svc, id, task.id, turn.worktree, start, log);
  // --max-tasks reached: the completion's snapshot is the pause's (one snapshot, not two)
  const pauseAfter =
    o.maxTasks !== null && memory.done >= o.maxTasks
      ? { reason: `${counted(memory.done, 'task')} done in this run`, trigger: 'task_complete' as const }
      : null;
  // the hangs it met on the way are behind it: later briefings say they were got past, not that they are open
  for (const e of (await svc.runner.load(id)).open_errors)
    if (e.error_type === HUNG && e.task_id === task.id)
      await svc.resolveError(
        { workflowId: id },
        e.id,
        'workaround',
        `${task.id} was done in a later attempt`,
      );
  const ended = await completeRunTask(svc, id, task.id, result.text?.slice(0, 500) ?? null, pauseAfter);
  // the agent's MCP call (complete_task), or a command by hand, finished it already: the run goes on
  if (ended)
    scope.say(`task ${task.id} was ${ended} already (by the agent's MCP call, or a command): going on`);
  const produced = taskProduced(await svc.runner.load(id), task.id, memory.begun.get(task.id) ?? null);
  finishTask(scope, turn, 'done', null, produced);
}
