import { agentLabel } from '../agent-label.js';
import { awaitedAfter } from '../call-text.js';
import { clip } from '../clip.js';
import { errorsHoldingWork } from '../errors-of-work.js';
import { endsOnHandoff, endsOnOffer, endsOnQuestion, endsWaitingOn } from '../message-ends.js';
import { requestsSinceTurnEnd, turnOver } from '../agent-turn.js';
import type { Draft } from '../draft.js';
import type { ErrorRecord } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import { leftBehind, leftBehindWords, tasksOver } from '../task-graph.js';
import { turnStop } from '../turn-stop.js';
import { assertTransition } from '../workflow-machine.js';
import { endOpenSession } from './lifecycle.js';
import { viaHook } from './requests.js';
import { failingCount } from './records.js';

/**
 * How long a workflow whose tasks are all done may sit untouched before a new conversation takes it as finished
 * although no SessionEnd came (a terminal closed, or a Codex older than its SessionEnd hook) and nothing says its
 * conversation is over (`ConversationsOver`: where the agent's process cannot be seen).
 */
export const FINISHED_IDLE_MS = 30 * 60_000;

/**
 * Agent conversations known to be over although no SessionEnd said so (an older Codex has none), by agent session id, each
 * with why: the process that ran its hooks exited, or went on to another conversation (Codex's `/new`).
 */
export type ConversationsOver = Readonly<Record<string, string>>;

/**
 * Why the work of a workflow that hooks follow is over at `now`, or null while it may go on. It is over when Baton
 * created it for an agent's session (auto_track), the work is done (every task of the agent's list done or skipped, but
 * those left from an earlier plan that no later list took up: `leftBehind`;
 * without a list, the user's last request answered: the agent's last message came after it), no test is failing, no
 * pause is asked for, no usage limit stopped its last turn, its last turn left nothing it waits on (`awaitedAfter`: a
 * command left running in the background, sub-agents that had not answered; `endsWaitingOn`: a CI run its words say
 * it waits on; `endsOnHandoff`: the user's answer to "Reply 'approve' and I'll go on" or "Ready to proceed?"), and
 * the last agent session ended (its SessionEnd hook came: the user quit or cleared it; or its conversation is in
 * `over` and its last turn ended) or nothing happened in the workflow for FINISHED_IDLE_MS. An open error holds it,
 * unless the agent went on past every one (`wentOnPast`) before its session ended or the workflow went quiet: then the
 * reason names them. An API failure the work went on past is no such error (`errorsHoldingWork`); one that cut off the
 * last turn holds it. A new conversation (or a `/clear`) then starts a new workflow (shown what the finished one did)
 * instead of being told to continue finished work; a compaction, a `--resume`, a task left open, a request the agent
 * never answered or an error met after the agent's last answer continue this one. A workflow paused once every task of
 * its list was done (`pausedOnceDone`: "end of day" after the work) is over the same way, its pause its end: the pause
 * held nothing back; one paused with a task under way is resumed.
 */
export function finishedWork(s: WorkflowState, now: string, over: ConversationsOver = {}): string | null {
  if (!s.auto_tracked || s.pause_requested) return null;
  if (s.status !== 'in_progress' && !pausedOnceDone(s)) return null;
  const done = workDone(s);
  if (done === null) return null;
  if (s.test_state && (failingCount(s.test_state) > 0 || s.test_state.not_run_again)) return null;
  if (turnStop(s.summaries, (s.recent_requests ?? []).at(-1)) !== null) return null;
  // a turn that ended waiting (on a CI check it left running, on sub-agents) is not over when the user quits: the
  // next session is to see how what it waited on came out
  if (s.summaries?.last_message && awaitedAfter(s.summaries.last_message.text).length) return null;
  // or that says in its own words it waits on one before its next step ("Waiting for CI; once it passes I'll merge")
  if (s.summaries?.last_message && endsWaitingOn(s.summaries.last_message.text)) return null;
  // so is a turn that ended handing the next step to the user's answer ("Reply 'approve' and I'll go on to the Plan
  // step"), whatever it did and whatever its list says: the step it holds back is work not done, the user's to allow
  if (s.summaries?.last_message && endsOnHandoff(s.summaries.last_message.text)) return null;
  const held = errorsHoldingWork(s);
  const last = s.sessions[s.sessions.length - 1];
  const idle = Date.parse(now) - Date.parse(s.updated_at);
  // a conversation that is over but whose turn never ended was cut off: the next session is told so instead
  const why = last?.agent ? over[last.agent.session_id] : undefined;
  const ended =
    s.status === 'paused'
      ? `it was paused after that${s.pause_reason ? ` (${s.pause_reason})` : ''}`
      : last?.ended_at
        ? (last.end_reason ?? 'its last session ended')
        : last?.agent && why && turnOver(s) !== false
          ? `${agentLabel(last.agent.name)} session ${last.agent.session_id} is over (${why})`
          : null;
  const stopped =
    ended ??
    (idle >= FINISHED_IDLE_MS ? `nothing happened in it for ${Math.floor(idle / 60_000)} min` : null);
  if (stopped === null) return null;
  if (held.n === 0) return `${done} and ${stopped}`;
  return wentOnPast(s, held.errors) ? `${done} and ${stopped}; ${leftOpen(held.errors, held.n)}` : null;
}

/**
 * The work of a workflow the hooks follow is done while its agent's conversation goes on: what is done (`workDone`'s
 * words), when nothing but that open conversation keeps `finishedWork` from taking it as over (once the user quits or
 * clears it, the next new conversation here completes it). Null when it is over already, its last session ended, or
 * something else holds it (a task left, a failing test, an open error, a question to the user).
 */
export function doneWhileOpen(s: WorkflowState, now: string): string | null {
  const last = s.sessions.at(-1);
  if (!last || last.ended_at !== null || finishedWork(s, now) !== null) return null;
  const ended = { ...last, ended_at: now, end_reason: 'its conversation ended' };
  return finishedWork({ ...s, sessions: [...s.sessions.slice(0, -1), ended] }, now) === null
    ? null
    : workDone(s);
}

/**
 * Paused with no task of the agent's list under way, nor ended since (a task in progress when the pause took effect
 * would end after it): the pause came once the work of its list was done. Without a list, what was under way is not
 * known: such a pause is resumed.
 */
function pausedOnceDone(s: WorkflowState): boolean {
  const at = s.paused_at;
  if (s.status !== 'paused' || at === null || !s.tasks.length) return false;
  return s.tasks.every((t) => t.status !== 'in_progress' && (t.ended_at === null || t.ended_at <= at));
}

/**
 * The agent met every open error that holds the work (`open`: `errorsHoldingWork`) before the last answer that ended
 * its turn: it went on past them (worked around, fixed where Baton did not see it, or left for the user), reported,
 * and the user quit or left it. An error after that answer, or with no such answer (its turn died: an API error),
 * still holds the work. The open errors the state no longer lists are older than those it does.
 */
function wentOnPast(s: WorkflowState, open: readonly ErrorRecord[]): boolean {
  const answer = s.summaries?.last_message;
  if (!answer || answer.turn_ended !== true) return false;
  const at = Date.parse(answer.timestamp);
  return open.every((e) => Date.parse(e.timestamp) <= at);
}

/** The open errors a finished workflow leaves, said where its completion is (the next session is shown them). */
function leftOpen(open: readonly ErrorRecord[], n: number): string {
  const shown = open.slice(-2).map((e) => errorInWords(e, 60));
  const more = n > shown.length ? `; ${n - shown.length} more` : '';
  return `${n} error${n === 1 ? '' : 's'} met on the way left open (${shown.join('; ')}${more})`;
}

/** An error in one short line, as `baton status` names it: `e-1a2b: TypeError: x is undefined`. */
export const errorInWords = (e: { id: string; error_type: string; error_message: string }, max = 80) =>
  `${e.id}: ${e.error_type}: ${clip(e.error_message.split('\n')[0] ?? '', max)}`;

/**
 * What alone keeps the work from being over at `now`: its open errors, when finishedWork would say it is over were
 * they resolved (a stale one, fixed where Baton did not see it, keeps the workflow open for good). Said with the errors
 * and how to resolve one that no longer applies; null when none is open, or something else holds the work too.
 */
export function heldByErrors(s: WorkflowState, now: string, over: ConversationsOver = {}): string | null {
  const { n, errors } = errorsHoldingWork(s);
  if (n === 0 || finishedWork(s, now, over) !== null) return null;
  const without = { ...s, open_errors: [], counts: { ...s.counts, open_errors: 0 } };
  const done = finishedWork(without, now, over);
  if (done === null) return null;
  const shown = errors.slice(-3);
  const listed = shown.map((e) => errorInWords(e));
  const more = n > shown.length ? `; ${n - shown.length} more` : '';
  const one = n === 1 ? shown[0] : undefined;
  return `${n} open error${n === 1 ? '' : 's'} (${listed.join('; ')}${more}) ${one ? 'holds' : 'hold'} it, though ${done}; resolve ${one ? 'it' : 'each'} with \`baton record resolve ${one ? one.id : '<error id>'} --resolution fixed\` if ${one ? 'it no longer applies' : 'they no longer apply'}`;
}

/**
 * Why the work asked for is done, or null: every task of the list (or every one but those left from an earlier plan,
 * `leftBehind`, named), or without one the last request answered (not with a question back that waits on the user:
 * `waitsOnUser`).
 */
function workDone(s: WorkflowState): string | null {
  const n = s.tasks.length;
  if (n > 0) {
    if (!tasksOver(s.tasks)) return null;
    // the later lists moved on without an earlier plan's tasks, though told of them: done, those handed on named
    const left = leftBehind(s.tasks);
    if (left.length) return `every other task is finished (${leftBehindWords(left.map((t) => t.id))})`;
    const skipped = s.tasks.filter((t) => t.status === 'skipped').length;
    if (n === 1) return skipped ? 'its task was skipped' : 'its task is done';
    return skipped
      ? `all ${n} of its tasks are finished (${n - skipped} done, ${skipped} skipped)`
      : `all ${n} of its tasks are done`;
  }
  return lastRequestAnswered(s) === true && !waitsOnUser(s) ? "the user's last request was answered" : null;
}

/**
 * Whether the user's last request was answered: the agent's last message came after it and its turn ended on it (a
 * message the agent went on from, or the user stopped, is no answer); null when no request was recorded. Where the
 * hooks follow the turn (its prompt was seen by a hook, or they reported the end of a turn of the session the request
 * was made in), a Stop is what says this turn ended: a transcript that ends on a message (its process killed while
 * the agent went on, or between a message and its next call) is no end.
 */
export function lastRequestAnswered(s: WorkflowState): boolean | null {
  const asked = (s.recent_requests ?? []).at(-1);
  if (!asked) return null;
  const answer = s.summaries?.last_message;
  if (!answer || answer.turn_ended !== true) return false;
  const hooked = viaHook(asked.source) || s.turn_ended?.session_number === asked.session_number;
  if (hooked && requestsSinceTurnEnd(s) > 0) return false;
  return Date.parse(answer.timestamp) >= Date.parse(asked.at ?? asked.timestamp);
}

/**
 * Whether the answer to the user's last request is a question back, with nothing changed since the request ("Before I
 * write it: should it take negative exponents?"): the work waits on the user's answer. An offer that closes an answer
 * ("Want me to add tests for it?") is no such question.
 */
function waitsOnUser(s: WorkflowState): boolean {
  const asked = (s.recent_requests ?? []).at(-1);
  const answer = s.summaries?.last_message;
  if (!asked || !answer || !endsOnQuestion(answer.text) || endsOnOffer(answer.text)) return false;
  const at = Date.parse(asked.at ?? asked.timestamp);
  return !(s.side_effects ?? []).some((e) => Date.parse(e.timestamp) >= at);
}

/** Completes a workflow whose work is over (`finishedWork`), saying why; null when it is not (or no longer) over. */
export function finishWork(d: Draft, over: ConversationsOver = {}): string | null {
  const why = finishedWork(d.state, d.ctx.now, over);
  if (why === null) return null;
  // a paused one leaves its pause first (the status machine completes only a workflow in progress), as it was
  if (d.state.status === 'paused')
    d.emit({
      type: 'workflow.resumed',
      data: { from_snapshot_id: d.state.last_snapshot?.id ?? null, warnings: d.state.warnings },
    });
  assertTransition(d.state.status, 'completed', 'complete the workflow');
  d.emit({ type: 'workflow.completed', data: { reason: why } });
  endOpenSession(d, 'completed', null);
  return why;
}
