import type { QueueStanding } from '../queue/work-reach.js';
import type { CutShort } from '../schemas/runtime.js';
import type { WorkflowState } from '../schemas/state.js';
import { hookedAgent } from '../agent-turn.js';
import { nextTask } from '../task-graph.js';

/**
 * What runs an in-progress workflow next when nothing does now, and why: `command` is what a person runs (null when
 * a worker will go on with it by itself).
 */
export interface NextStep {
  command: string | null;
  reason: string;
}

/**
 * A workflow Baton's own driver runs (`baton run`, a worker, `baton serve`): a driver launched an agent for it, and
 * no agent's hooks report into its current session. Between two runs nothing runs such a workflow: no agent of the
 * person's own picks it up, as one followed by hooks does at the next prompt.
 */
export function runDriven(s: WorkflowState): boolean {
  return !!s.agent && hookedAgent(s) === null;
}

/** The step that goes on with an in-progress workflow `baton run` drives while nothing runs it. */
export const runNext = (workflowId: string): NextStep => ({
  command: `baton run -w ${workflowId}`,
  reason: 'this workflow is run by `baton run`: nothing runs it until then',
});

/**
 * The step of such a workflow queued for the workers: one of them goes on with it, or, when nothing can take it
 * (`queueStanding`), the worker that would.
 */
export const queuedNext = (stuck: QueueStanding['stuck'] = null): NextStep => ({
  command: null,
  reason: stuck
    ? `it is queued for the workers, but nothing can take it (${stuck.reason}): \`${stuck.command}\` would`
    : 'it is queued for the workers, one of which goes on with it (`baton queue`)',
});

/** An in-progress workflow nothing runs, in words that end with what goes on with it. */
export const nothingRunsIt = (n: NextStep) =>
  n.command
    ? `nothing runs it (it is run by \`baton run\`, and none drives it now): \`${n.command}\` goes on from where it is`
    : `nothing runs it now: ${n.reason}`;

/** Why no agent runs the session, as the session status says it: "no (... nothing runs it until `baton run -w wf-1`)". */
export const notRunningNote = (n: NextStep) =>
  n.command ? `no (it is run by \`baton run\`: nothing runs it until \`${n.command}\`)` : `no (${n.reason})`;

/** "`baton run -w wf-1` (this workflow is run by ...)", or the reason alone for a queued one. */
export const nextStepText = (n: NextStep) => (n.command ? `\`${n.command}\` (${n.reason})` : n.reason);

/**
 * The current session was started by a person's resume or recovery and no driver has launched an agent into it yet:
 * the driver that picks it up hands its agent the compiled context, as it does after resuming the workflow itself.
 */
export function resumedWithoutAgent(s: WorkflowState): boolean {
  const session = s.sessions.at(-1);
  if (s.status !== 'in_progress' || !session || session.origin === 'create') return false;
  return !s.agent || Date.parse(s.agent.launched_at) < Date.parse(session.started_at);
}

/**
 * What the next `baton run` does with the agent's own conversation, in one clause: one wording wherever it is said (a
 * resume, a recovery, the line that says a crash was handled). After a person's resume or recovery
 * (`resumedWithoutAgent`), a fresh agent session handed the compiled briefing; after a crash of the run whose agent
 * had named its session (its resume token), `baton run -w` goes on in that conversation (a resume or a recovery first
 * would give it up). Null when neither is so.
 */
export function nextRunWords(s: WorkflowState): string | null {
  if (resumedWithoutAgent(s))
    return "the next `baton run` starts a fresh agent session with the briefing below, not the agent's own conversation from before";
  if (s.status === 'interrupted' && s.agent?.resume_token)
    return `continue in the agent's own conversation with \`baton run -w ${s.id}\``;
  return null;
}

/**
 * The agent's own session a run that resumes the workflow (`resumeWorkflow`) goes on in, or null for a fresh one
 * handed the briefing, when the same agent goes on: after a crash (interrupted), the one it was cut off in; after a run
 * that stopped cleanly at a task boundary (`baton run --max-tasks`: paused with trigger `task_complete`), the one that
 * did the last task. A context near full pauses as `exhaustion`, a person's pause as `pause`, and a person's
 * resume leaves the workflow in progress (`resumedWithoutAgent`): each of those starts a fresh one.
 */
export function sessionToGoOn(s: WorkflowState, agent: string): string | null {
  const a = s.agent;
  // another agent cannot go on in this one's conversation (Codex handed Claude Code's session id)
  if (!a?.resume_token || a.agent !== agent) return null;
  if (s.status === 'interrupted') return a.resume_token;
  return s.status === 'paused' && s.pause_trigger === 'task_complete' ? a.resume_token : null;
}

/**
 * How many failures in a row of a task (`Task.failures`) a run goes on from in the agent session that failed it: past
 * them a fresh session starts with the briefing, as the same conversation is likely to fail the same way again.
 */
export const FRESH_AFTER_FAILURES = 3;

/**
 * How the last run's agent ended short of the task this run takes next with its conversation whole (`CutShort`: cut
 * off in the middle of its turn, killed or crashed; stopped at its turn limit; or stopped as hung), and its own
 * session to go on in there, as after a crash of `baton run` itself: `token` null when the agent never named its
 * session. `fresh` says why a fresh session goes on instead, with the briefing: it hung there, or the task failed
 * there `FRESH_AFTER_FAILURES` times in a row; `failures` counts them. Null otherwise (another agent or task, a
 * failure of the task itself, or a person paused or resumed the workflow since: a fresh session is asked for).
 */
export function cutShortSession(
  s: WorkflowState,
  agent: string,
): { token: string | null; taskId: string; how: CutShort; failures: number; fresh: string | null } | null {
  const a = s.agent;
  const task = nextTask(s.tasks);
  // an agent killed before its exits said how it was cut short (an event log older than `cut_short`) was cut off
  const how = a?.last_cut_short ?? (a?.last_outcome === 'killed' ? 'cut_off' : null);
  if (s.status !== 'in_progress' || !a || !how || a.agent !== agent) return null;
  if (!task || task.status !== 'failed' || a.last_task !== task.id || resumedWithoutAgent(s)) return null;
  const failures = task.failures ?? 1;
  const fresh =
    how === 'hung'
      ? 'it may hang again in its own session'
      : failures >= FRESH_AFTER_FAILURES
        ? `it failed ${failures} times in a row in its own session`
        : null;
  return { token: a.resume_token, taskId: task.id, how, failures, fresh };
}

/**
 * How the last run's agent ended short of its task, in words that follow "the last run's agent": how it exited when
 * it did (a crash, an error with no result said), else cut off (killed); stopped at its turn limit; or hung.
 */
export function cutShortWords(s: WorkflowState, how: CutShort): string {
  if (how === 'turn_limit') return 'stopped at its turn limit';
  if (how === 'hung') return 'was stopped as hung (it printed nothing for its stall timeout)';
  const code = ownExitCode(s);
  return code === null
    ? 'was cut off in the middle of its turn'
    : `exited with code ${code} in the middle of its turn`;
}

/**
 * The code the last run's agent exited with on its own (an error it did not report as a result), or null when it was
 * killed: by a signal, or under a wrapper that exits 128 + the signal's number (137: SIGKILL).
 */
export function ownExitCode(s: WorkflowState): number | null {
  const code = s.agent?.last_exit_code;
  return code === null || code === undefined || code >= 128 ? null : code;
}

/** A task's failures in a row, in words: "its first failure", "it failed 2 times in a row". */
export const failuresWords = (n: number) => (n <= 1 ? 'its first failure' : `it failed ${n} times in a row`);

/**
 * A task's failures in a row as said beside its cause, with what the next run does about them (a fresh session past
 * `FRESH_AFTER_FAILURES`); null for a first failure, which needs no word.
 */
export const failuresNote = (n: number): string | null =>
  n >= FRESH_AFTER_FAILURES
    ? `${failuresWords(n)}: the next run starts it in a fresh agent session, with the briefing`
    : n > 1
      ? failuresWords(n)
      : null;

/**
 * The last session is a transcript read in (`baton import`) that no agent follows, through its hooks or `baton run`:
 * no agent works on it, so none of its tasks and none of its turns will end (a pause waits for neither), and the
 * agent's next session in its worktree goes on with it (its hooks join the worktree's open workflow).
 */
export function importedAtRest(s: WorkflowState): boolean {
  const cur = s.sessions.at(-1);
  return !!cur?.imported && !cur.agent && !runDriven(s);
}
