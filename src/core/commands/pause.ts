import type { Draft } from '../draft.js';
import { assertTransition, canTransition } from '../workflow-machine.js';
import { allFinished, inProgressTasks } from '../task-graph.js';
import type { GitCapture } from '../schemas/git-state.js';
import type { SnapshotTrigger } from '../schemas/workflow.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import type { WorkflowState } from '../schemas/state.js';
import { endOpenSession } from './lifecycle.js';
import { takeSnapshot } from './snapshots.js';
import { hookedAgent, turnUnderWay, type TurnRef } from '../agent-turn.js';
import { importedAtRest } from '../runtime/run-driven.js';
import { cliWord } from '../surface-words.js';
import { askedBy, type Asker } from '../teammate-act.js';

export interface PauseInput {
  reason: string | null;
  trigger: SnapshotTrigger;
  force: boolean;
  /** How long a requested pause waits for its task boundary (or the agent's turn to end) before it is forced. */
  timeoutMs: number;
  git: GitCapture;
  /**
   * The agent its hooks follow is gone: its process exited with no SessionEnd (a crash, a kill). The service knows it
   * (the core reads no process): a turn it had under way never ends, so a pause waits for nothing it would have done.
   */
  agentGone?: boolean;
  /** The person whose command asks it (recorded on its event, `askedBy`); unset: no person (a hook, a driver). */
  by?: Asker;
  /** `agent`: the agent asks it itself (the MCP tool `request_pause`), not its user (recorded on its event). */
  askedBy?: 'agent';
}

/**
 * Who asked a pause, as its events record it: the person's git email and whether they own the workflow
 * (`askedBy`), and `agent` when the agent asked itself.
 */
export interface PauseAsker {
  by?: string;
  by_owner?: boolean;
  asked_by?: 'agent';
}

/** Who asked the pause request pending (a request taking effect is the pause of whoever requested it). */
const requestAsker = (s: WorkflowState): PauseAsker => {
  const r = s.pause_request;
  return {
    ...(r?.by ? { by: r.by } : {}),
    ...(r?.by && r.by_owner !== undefined ? { by_owner: r.by_owner } : {}),
    ...(r?.asked_by ? { asked_by: r.asked_by } : {}),
  };
};

/** Who asks this pause, as its events record it. */
const inputAsker = (input: PauseInput): PauseAsker => ({
  ...askedBy(input.by),
  ...(input.askedBy ? { asked_by: input.askedBy } : {}),
});

/** Who a pause's words name as asking it: the agent (`request_pause`), or its user (every other pause asked for). */
export const pauseAskerWord = (askedBy: 'agent' | undefined) =>
  askedBy === 'agent' ? 'The agent' : 'The user';

export type PauseOutcome =
  | { outcome: 'paused'; snapshot_id: string; warning: string | null }
  | {
      outcome: 'requested';
      waiting_for: string[];
      /** The agent's turn it waits for, when it waits for one to end (asked mid-turn with no task in progress). */
      waiting_for_turn: TurnRef | null;
    }
  | {
      /**
       * A pause was requested before and still waits: that request stands as it was (its reason is not replaced in the
       * log); `ignored_reason` is the reason this call gave when it differs from the pending one, not recorded.
       */
      outcome: 'already_requested';
      reason: string | null;
      requested_at: string;
      ignored_reason: string | null;
      waiting_for: string[];
      waiting_for_turn: TurnRef | null;
    }
  | { outcome: 'already_paused'; snapshot_id: string | null };

/** The pause request a resume withdrew: its reason and when it was made. */
export interface PauseWithdrawal {
  outcome: 'pause_withdrawn';
  reason: string | null;
  requested_at: string;
}

/** What a requested pause holds back: the words a task start it refuses says, and the agent it stops is told. */
export const pauseHoldsBack = 'no new task starts until the workflow is resumed';

/**
 * The agent whose task end a requested pause took effect at, told to stop: the work is paused for the person who asked,
 * and goes on when they resume it, not when the agent does.
 */
export const pauseTookEffectWords = (reason: string | null, askedBy?: 'agent') =>
  `${askedBy === 'agent' ? 'You asked' : 'The user asked'} to pause this workflow${reason ? ` (reason: ${reason})` : ''}, and it is now paused: ${pauseHoldsBack}. End your turn now; do not resume it yourself${askedBy === 'agent' ? ': the user resumes it' : ''}.`;

/**
 * The workflow is paused because a pause was asked for (`baton pause`, the dashboard, the API, `request_pause`; the
 * log names no one else: `pause` is the trigger of every pause asked for, a request that took effect included), not
 * stopped by Baton (a usage limit, `--max-sessions`, a timeout). The agent is told not to resume it itself (the
 * refusals of `assertActive`, `pauseTookEffectWords`): it goes on when whoever asked resumes it.
 */
export const pausedByUser = (s: Pick<WorkflowState, 'status' | 'pause_trigger'>) =>
  s.status === 'paused' && s.pause_trigger === 'pause';

/** What a refusal on a stopped workflow adds for the person at the terminal: how it goes on. */
export const resumeItFirst = `; resume it first (${cliWord('resume')})`;

/**
 * Whether a requested pause has waited longer than its timeout (the one it was requested with, else `defaultMs`), and
 * that timeout: the one place this is decided (the pause itself, the service's enforcement, status).
 */
export function pauseOverdue(
  s: Pick<WorkflowState, 'pause_request'>,
  now: string,
  defaultMs: number,
): { overdue: boolean; timeoutMs: number } {
  const timeoutMs = s.pause_request?.timeout_ms ?? defaultMs;
  const overdue =
    s.pause_request !== null && Date.parse(now) - Date.parse(s.pause_request.requested_at) >= timeoutMs;
  return { overdue, timeoutMs };
}

/** Pauses now: a snapshot, `workflow.paused`, and the end of the running session (when one runs). */
export function pauseNow(
  d: Draft,
  reason: string | null,
  trigger: SnapshotTrigger,
  git: GitCapture,
  warning: string | null,
  // a requested pause taking effect is the pause of whoever requested it
  asker: PauseAsker = requestAsker(d.state),
) {
  const snapshot = takeSnapshot(d, trigger, reason, git, warning ? [warning] : []);
  d.emit({
    type: 'workflow.paused',
    data: {
      reason,
      trigger,
      forced: warning !== null,
      snapshot_id: snapshot.id,
      warning,
      ...asker,
    },
  });
  endOpenSession(d, trigger, snapshot.id);
  return snapshot;
}

/**
 * The pause's snapshot taken again, as it was (its trigger, reason and warnings) with what was recorded since: a pause
 * forced while `baton run`'s agent worked took its snapshot before that agent was stopped, and its last words (the
 * call it was cut off in) are recorded only once its output has been read to the end. The next session is handed the
 * latest snapshot, so it must hold them. Null when the workflow is no longer paused, or `taken` is not its latest.
 */
export function retakePauseSnapshot(
  d: Draft,
  taken: SessionSnapshot,
  git: GitCapture,
): SessionSnapshot | null {
  const s = d.state;
  if (s.status !== 'paused' || s.last_snapshot?.id !== taken.id) return null;
  return takeSnapshot(d, taken.trigger, taken.pause_reason, git, taken.warnings);
}

const wasOrWere = (ids: readonly string[]) =>
  `${ids.join(', ')} ${ids.length > 1 ? 'were' : 'was'} in progress`;

/**
 * Whether the agent that follows the workflow through its hooks is at rest: the last session followed one, and no
 * turn of it is under way (its turn ended, or the session did). Nothing works on a task in progress then until its
 * user speaks: such a task is no boundary to wait for.
 */
function agentAtRest(s: WorkflowState): boolean {
  return hookedAgent(s) !== null && turnUnderWay(s) === null;
}

/** What a pause says when it took effect in an imported session with tasks of its list in progress. */
function importedWarning(s: WorkflowState): string | null {
  const running = inProgressTasks(s.tasks).map((t) => t.id);
  return running.length && importedAtRest(s)
    ? `paused while ${wasOrWere(running)} in an imported session, which no agent works on`
    : null;
}

/**
 * The agent its hooks follow is gone in the middle of its turn (`agentGone`: its process exited with no Stop): that
 * turn never ends, nor does a task it worked on. Nothing is left for a pause to wait for.
 */
const cutOff = (s: WorkflowState, agentGone: boolean) => agentGone && turnUnderWay(s) !== null;

/** What a pause says when it took effect because the agent it waited on was cut off mid-turn (`cutOff`). */
function cutOffWarning(s: WorkflowState, agentGone: boolean): string | null {
  if (!cutOff(s, agentGone)) return null;
  const running = inProgressTasks(s.tasks).map((t) => t.id);
  return `paused after the agent's process ended in the middle of its turn${running.length ? ` while ${wasOrWere(running)}` : ''}`;
}

/** A hook reported the end of the agent's turn since the pause was requested. */
const turnEndedSinceRequest = (s: WorkflowState) =>
  !!s.turn_ended &&
  !!s.pause_request &&
  Date.parse(s.turn_ended.at) >= Date.parse(s.pause_request.requested_at);

/** What a pause that waited for the agent's turn says when the turn ended in the middle of a task of its list. */
function turnEndWarning(s: WorkflowState): string | null {
  const running = inProgressTasks(s.tasks).map((t) => t.id);
  return running.length && turnEndedSinceRequest(s)
    ? `paused at the end of the agent's turn while ${wasOrWere(running)}`
    : null;
}

/**
 * The boundary a request waited for finished every task while the agent's turn is under way (a Stop not come since
 * the request): there is nothing left to stop the agent before, so the pause waits for that turn's end, and the agent
 * says what it did (its last message) rather than being cut off before it. `honourRequestedPause` records it
 * (`workflow.pause_deferred`), so what the agent does after (a new task of its list) no longer moves the pause.
 */
function listFinishedMidTurn(s: WorkflowState): boolean {
  return allFinished(s.tasks) && turnUnderWay(s) !== null && !turnEndedSinceRequest(s);
}

/** The pending request waits for the end of the agent's turn rather than for a task boundary. */
function waitsForTurnEnd(s: WorkflowState): boolean {
  return s.pause_request?.until === 'turn_end' || listFinishedMidTurn(s);
}

/**
 * Whether a requested pause takes effect now: one that waits for the agent's turn (asked mid-turn with no task in
 * progress, or its boundary finished every task mid-turn) once a hook reported that turn's end (a Stop after the
 * request); any other once no task is in progress (a task boundary) or, for an agent followed through its hooks, once
 * its turn ended first (it then waits for its user, whatever its list says); any at once in an imported session,
 * which no agent works on, or once the agent was cut off mid-turn (`agentGone`, `cutOff`). The one rule every point where a pause may take effect asks (`honourRequestedPause`: the
 * task commands, the agent's list, the turn's end), and `pause` and the status through `pauseWaitsFor`.
 */
export function requestedPauseTakesNow(s: WorkflowState, agentGone = false): boolean {
  if (!s.pause_requested || !s.pause_request) return false;
  if (importedAtRest(s) || cutOff(s, agentGone)) return true;
  if (waitsForTurnEnd(s)) return turnEndedSinceRequest(s);
  return inProgressTasks(s.tasks).length === 0 || (hookedAgent(s) !== null && turnEndedSinceRequest(s));
}

/** What a point where a requested pause may take effect did about it: took it, or left it waiting for the turn. */
export type HonouredPause =
  { outcome: 'paused'; snapshot: SessionSnapshot } | { outcome: 'waits_for_turn_end' } | null;

/**
 * A point where a requested pause may take effect (a task's end, the agent's list, the end of its turn): the pause
 * taken when it takes effect now (`requestedPauseTakesNow`, with `git` for its snapshot); when the boundary it waited
 * for finished every task mid-turn, the request recorded as waiting for that turn's end instead. Null otherwise (no
 * request, or it waits on). `agentGone`: the service found the agent its hooks follow gone (`PauseInput.agentGone`).
 */
export function honourRequestedPause(d: Draft, git: GitCapture, agentGone = false): HonouredPause {
  const s = d.state;
  if (s.status !== 'in_progress' || !s.pause_request) return null;
  if (requestedPauseTakesNow(s, agentGone))
    return { outcome: 'paused', snapshot: takeRequestedPause(d, git, agentGone) };
  if (s.pause_request.until === 'turn_end' || !listFinishedMidTurn(s)) return null;
  d.emit({ type: 'workflow.pause_deferred', data: { until: 'turn_end' } });
  return { outcome: 'waits_for_turn_end' };
}

/**
 * What a pause waits for before it takes effect: the tasks in progress (their boundary), the agent's turn under way
 * (its end), or both, whichever comes first.
 */
export interface PauseWaits {
  tasks: string[];
  turn: TurnRef | null;
}

/** The current session agent's turn: what a pause that waits for a turn's end names when none is seen under way. */
function sessionTurn(s: WorkflowState): TurnRef | null {
  const cur = s.sessions.at(-1);
  return cur?.agent ? { session_number: cur.number, agent: cur.agent.name } : null;
}

/**
 * What a pause waits for: with a request pending, what that request waits for; else what a pause asked now would.
 * Null when it takes effect at once, or when none can (a workflow paused, finished, interrupted or not started). The
 * one place this is decided: `pause` acts on it, the status serves it (`pause_waits_for`), and the CLI and the
 * dashboard only say it. A request made mid-turn with no task in progress waits for that turn alone, whatever tasks
 * its agent starts in it; so does one whose task boundary finished every task mid-turn (`requestedPauseTakesNow`).
 * An agent cut off mid-turn (`agentGone`: the service found its process gone) leaves nothing to wait for.
 */
export function pauseWaitsFor(s: WorkflowState, agentGone = false): PauseWaits | null {
  if (!canTransition(s.status, 'paused') || cutOff(s, agentGone)) return null;
  const running = inProgressTasks(s.tasks).map((t) => t.id);
  const turn = turnUnderWay(s);
  if (s.pause_requested && s.pause_request) {
    if (requestedPauseTakesNow(s)) return null;
    return waitsForTurnEnd(s) ? { tasks: [], turn: turn ?? sessionTurn(s) } : { tasks: running, turn };
  }
  // asked now: with no task in progress, the turn under way is let finish (what the agent does in it is not known
  // before its end); with tasks in progress and no agent at work on them, nothing is waited for
  if (!running.length) return turn ? { tasks: [], turn } : null;
  return agentAtRest(s) || importedAtRest(s) ? null : { tasks: running, turn };
}

/** What a pending pause waits for when nothing is left (`pauseWaitsFor` null): the dashboard's banner says it too. */
export const nothingLeft = 'nothing left to wait for';

/**
 * A requested pause still waiting, in words, with what it waits for (`pauseWaitsFor`'s answer): "pause requested, when
 * the agent's turn ends". The one place they are built: `baton status` says them, and so does a task's end that left
 * the pause waiting (`baton task done`, the MCP tools), so the one who moved the task knows it did not pause yet.
 */
export function pauseRequestedWords(waits: PauseWaits | null): string {
  // a request left with nothing to wait for (a transcript read into its session afterwards: no agent will end its task
  // or its turn) takes effect when asked again, or at its timeout
  if (!waits) return `pause requested, ${nothingLeft}: \`baton pause\` takes it now`;
  const when = pauseWhenWords(waits);
  return `pause requested${when ? `, ${when}` : ''}`;
}

/** When a requested pause takes effect, in words ("when T1 finishes", "when the agent's turn ends"); null: not said. */
export function pauseWhenWords(waits: PauseWaits): string | null {
  const tasks = waits.tasks.length
    ? `${waits.tasks.join(', ')} ${waits.tasks.length > 1 ? 'finish' : 'finishes'}`
    : null;
  return !waits.turn
    ? tasks && `when ${tasks}`
    : tasks
      ? `when ${tasks} or the agent's turn ends, whichever comes first`
      : "when the agent's turn ends";
}

/** A pause the user asked for that still waits, as the briefing of a session that starts meanwhile tells it. */
export interface PauseWaiting {
  reason: string | null;
  /** `agent`: the agent asked it itself (`request_pause`); absent: its user did. */
  asked_by?: 'agent';
  requested_at: string;
  /** The tasks in progress it waits for (none: it waits for the agent's turn to end). */
  tasks: string[];
  /** When it takes effect, in words (`pauseWhenWords`); null: nothing is left to wait for, the next step takes it. */
  when: string | null;
}

/**
 * The pause the user asked for that still waits for a task to finish or a turn to end, null when none does: a session
 * that starts meanwhile is told, so that it finishes that task and ends its turn rather than being stopped at its next
 * task boundary unawares.
 */
export function pauseWaiting(s: WorkflowState): PauseWaiting | null {
  if (s.status !== 'in_progress' || !s.pause_requested || !s.pause_request) return null;
  const waits = pauseWaitsFor(s);
  return {
    reason: s.pause_request.reason,
    ...(s.pause_request.asked_by ? { asked_by: s.pause_request.asked_by } : {}),
    requested_at: s.pause_request.requested_at,
    tasks: waits?.tasks ?? [],
    when: waits ? pauseWhenWords(waits) : null,
  };
}

/**
 * A requested pause that is due takes effect: its reason and trigger, and a warning when tasks are still in progress
 * (the turn it waited for ended in the middle of one).
 */
function takeRequestedPause(d: Draft, git: GitCapture, agentGone: boolean) {
  const req = d.state.pause_request;
  const warning = cutOffWarning(d.state, agentGone) ?? turnEndWarning(d.state) ?? importedWarning(d.state);
  return pauseNow(d, req?.reason ?? null, req?.trigger ?? 'pause', git, warning);
}

/**
 * Pause waits for the task boundary: with tasks in progress it only records the request, and the workflow pauses when
 * they end, or when the turn of the agent that follows it through its hooks ends first; with that agent at rest (its
 * turn over), or when the last session is an imported transcript no agent works on, it pauses at once, naming the
 * tasks in progress. Asked while the agent's turn is under way (a prompt
 * came, its Stop has not) with no task in progress, it waits for that turn to end instead: what the agent does in it
 * (its task list, which Codex's Stop brings only with the transcript) is not known before. `force`, or the request
 * outliving `timeoutMs` (`pauseOverdue`), pauses at once with a warning; so does an agent cut off mid-turn
 * (`agentGone`), whose turn never ends. Pausing a paused workflow changes nothing;
 * nor does asking again while a request waits (`already_requested`: the first request and its reason stand). What it
 * waits for is `pauseWaitsFor`'s answer, which it returns as `waiting_for` and `waiting_for_turn`.
 */
export function pause(d: Draft, input: PauseInput): PauseOutcome {
  const s = d.state;
  if (s.status === 'paused') {
    // paused by a usage limit that a run waits out to resume it: a person's pause now holds it, as theirs (the run
    // sees the trigger change and stops waiting); `already_paused` would leave the run to go on at the reset
    if (
      s.pause_trigger === 'usage_limit' &&
      input.trigger === 'pause' &&
      s.agent?.usage_limit?.auto_resume_at
    ) {
      const snapshot = pauseNow(d, input.reason, 'pause', input.git, null, inputAsker(input));
      return { outcome: 'paused', snapshot_id: snapshot.id, warning: null };
    }
    return { outcome: 'already_paused', snapshot_id: s.last_snapshot?.id ?? null };
  }
  assertTransition(s.status, 'paused', 'pause');
  const running = inProgressTasks(s.tasks).map((t) => t.id);
  const { overdue, timeoutMs } = pauseOverdue(s, d.ctx.now, input.timeoutMs);
  const gone = input.agentGone ?? false;
  const waits = pauseWaitsFor(s, gone);
  if (!waits || input.force || overdue) {
    const reason = input.reason ?? s.pause_request?.reason ?? null;
    // a forced pause says what forced it (a usage limit, the run's time out, the user's reason)
    const forced = reason ? `paused at once (${reason})` : 'forced pause';
    const cut = `${input.force ? forced : `pause timeout of ${Math.round(timeoutMs / 1000)} s passed`} while`;
    // due at once on a new request with tasks in progress: no agent works on them (between its turns, or imported)
    const warning = waits
      ? `${cut} ${running.length ? wasOrWere(running) : "the agent's turn was under way"}`
      : (cutOffWarning(s, gone) ??
        (!s.pause_requested && running.length
          ? (importedWarning(s) ?? `paused between the agent's turns while ${wasOrWere(running)}`)
          : (turnEndWarning(s) ?? importedWarning(s))));
    const trigger = s.pause_request && !input.reason ? s.pause_request.trigger : input.trigger;
    // a new ask is its asker's; with none given (a hook, a driver), the pending request's
    const asker = input.by || input.askedBy ? inputAsker(input) : requestAsker(s);
    const snapshot = pauseNow(d, reason, trigger, input.git, warning, asker);
    return { outcome: 'paused', snapshot_id: snapshot.id, warning };
  }
  const said = { waiting_for: waits.tasks, waiting_for_turn: waits.turn };
  const pending = s.pause_request;
  if (pending) {
    const ignored = input.reason !== null && input.reason !== pending.reason ? input.reason : null;
    const { reason, requested_at } = pending;
    return { outcome: 'already_requested', reason, requested_at, ignored_reason: ignored, ...said };
  }
  d.emit({
    type: 'workflow.pause_requested',
    data: {
      reason: input.reason,
      trigger: input.trigger,
      timeout_ms: input.timeoutMs,
      // asked mid-turn with no task in progress: it waits for that turn's end, not for a task boundary
      ...(waits.turn && !waits.tasks.length ? { until: 'turn_end' as const } : {}),
      ...inputAsker(input),
    },
  });
  return { outcome: 'requested', ...said };
}

/**
 * A resume asked while a requested pause still waits withdraws it (`workflow.pause_withdrawn`): the workflow goes on as
 * if no pause had been asked for. Null when none waits (none was asked, or it took effect: the workflow is paused).
 * `by`: the person whose resume withdraws it (recorded on its event, `askedBy`); unset: no person.
 */
export function withdrawPause(d: Draft, by?: Asker): PauseWithdrawal | null {
  const req = d.state.pause_request;
  if (!d.state.pause_requested || !req) return null;
  const { reason, requested_at } = req;
  d.emit({ type: 'workflow.pause_withdrawn', data: { reason, requested_at, ...askedBy(by) } });
  return { outcome: 'pause_withdrawn', reason, requested_at };
}
