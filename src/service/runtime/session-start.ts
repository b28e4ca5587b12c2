import {
  cutOffOf,
  cutShortOf,
  cutShortSession,
  cutShortWords,
  failuresWords,
  formatSpan,
  FRESH_AFTER_FAILURES,
  isResumable,
  nextTask,
  resumedWithoutAgent,
  sessionToGoOn,
  type WorkflowState,
} from '../../core/index.js';
import type { NextTurn, RunScope } from './run-scope.js';
import { sleep, usageLimitAhead } from './usage-limit-wait.js';

/**
 * Resumes the paused or interrupted workflow into a new session: after a crash the agent's own session may go on
 * (its token, told where it was cut off), and so may the one that did the last task of a run that stopped cleanly at
 * a task boundary (`sessionToGoOn`); else a fresh agent session starts with the compiled context.
 */
export async function resumeWorkflow(
  { svc, id, o, emit }: RunScope,
  next: NextTurn,
  reason: 'exhaustion' | 'usage_limit' | 'paused' | 'interrupted',
) {
  const before = await svc.runner.load(id);
  const r = await svc.resume({ workflowId: id });
  next.resumeContext = r.context;
  // After a crash, or a run that stopped cleanly at a task boundary, the agent's own session may go on (its token);
  // after any other pause, a fresh agent session starts.
  next.token = o.profile.supports_session_resume ? sessionToGoOn(before, o.profile.name) : null;
  // the session that goes on is not handed the briefing that says where it was cut: its prompt says it
  next.cutOff = next.token && before.status === 'interrupted' ? cutOffOf(before) : null;
  emit({
    event: 'session.started',
    workflow_id: id,
    session_number: r.session_number,
    reason,
    context_tokens: r.context_tokens,
    agent_session: next.token,
  });
}

/**
 * How the run's first agent session starts, from how the workflow was left: a usage limit not reset yet is waited
 * for (--auto-resume) or said; a paused or interrupted workflow is resumed; a last agent cut short goes on in its own
 * session, unless it hung there or failed `FRESH_AFTER_FAILURES` times in a row (then a fresh one, with the briefing).
 */
export async function startFirstSession(scope: RunScope, next: NextTurn, s: WorkflowState) {
  const { svc, id, o, note } = scope;
  // Paused by a usage limit that has not reset yet: --auto-resume waits for it; else the person is told that the
  // agent may stop again at once.
  const limitAhead = s.status === 'paused' ? usageLimitAhead(s) : null;
  if (limitAhead && o.autoResume) {
    note(
      `the usage limit this workflow hit resets at ${limitAhead.words} (in ${formatSpan(limitAhead.ms)}): waiting for it (--auto-resume)`,
    );
    await sleep(limitAhead.ms, o.signal);
  } else if (limitAhead)
    note(
      `the usage limit this workflow hit resets at ${limitAhead.words} (in ${formatSpan(limitAhead.ms)}): going on now, the agent may stop again at once; add --auto-resume to wait for it`,
    );
  // stopped while waiting: the loop below says so and leaves the workflow paused
  if (!o.signal?.aborted && isResumable(s.status)) await resumeWorkflow(scope, next, s.status);
  // A person resumed or recovered it (the CLI, the dashboard) and no agent has run since: the fresh agent session
  // gets the briefing that resume compiled, as after a resume of its own.
  else if (resumedWithoutAgent(s)) next.resumeContext = (await svc.queries.context(s)).markdown;
  else {
    // The last run's agent was cut off mid-turn or stopped at its turn limit: its conversation goes on, told so
    const short = o.profile.supports_session_resume ? cutShortSession(s, o.profile.name) : null;
    const task = nextTask(s.tasks);
    if (short) {
      const what = `the last run's agent ${cutShortWords(s, short.how)} on ${short.taskId}${short.failures > 1 && !short.fresh ? ` (${failuresWords(short.failures)})` : ''}`;
      if (short.token && !short.fresh) {
        next.token = short.token;
        next.cutOff = cutShortOf(s, short.how);
        note(
          `${what}: going on in its own session (${short.token}; for a fresh one, \`baton pause -w ${id}\` before the run)`,
        );
      } else {
        // recorded with the launch (`fallback`) as a failed resume is: why this session starts fresh
        next.fallback = short.fresh ?? 'its own session is not known (it never named it)';
        next.resumeContext = (await svc.queries.context(s)).markdown;
        note(`${what}: ${next.fallback}, so a fresh session goes on with the compiled context`);
      }
    } else if (task?.status === 'failed' && (task.failures ?? 0) >= FRESH_AFTER_FAILURES) {
      // failed often, though not cut short (its turns ended on their errors): a fresh session, with the briefing
      next.resumeContext = (await svc.queries.context(s)).markdown;
      note(
        `${task.id} failed ${task.failures} times in a row: a fresh session goes on with the compiled context`,
      );
    }
  }
}
