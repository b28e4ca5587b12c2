import type { Draft } from '../draft.js';
import { invalidTransition } from '../errors.js';
import { runnableTasks, tasksOver } from '../task-graph.js';
import type { GitCapture } from '../schemas/git-state.js';
import type { SnapshotTrigger, Task } from '../schemas/workflow.js';
import type { WorkflowState } from '../schemas/state.js';
import { conversationOpen } from '../agent-turn.js';
import { endOpenSession } from './lifecycle.js';
import { noSuchTask } from './no-such-task.js';
import {
  honourRequestedPause,
  pauseHoldsBack,
  pausedByUser,
  pauseNow,
  pauseRequestedWords,
  pauseWaitsFor,
  resumeItFirst,
  type PauseWaits,
} from './pause.js';
import { makeCheckpoint, takeSnapshot } from './snapshots.js';
import { isResumable } from '../workflow-machine.js';

function findTask(d: Draft, id: string): Task {
  const t = d.state.tasks.find((x) => x.id === id);
  if (!t) throw noSuchTask(d.state, id);
  return t;
}

/** Why a task cannot start now, or null when it can. */
function whyNotRunnable(d: Draft, t: Task): string | null {
  if (t.status === 'in_progress') return `task ${t.id} is already in progress`;
  if (t.status === 'done' || t.status === 'skipped') return `task ${t.id} is already ${t.status}`;
  if (t.status === 'blocked')
    return `task ${t.id} is blocked${t.note ? ` (${t.note})` : ''}; unblock it first`;
  if (runnableTasks(d.state.tasks).some((r) => r.id === t.id)) return null;
  const open = t.deps.filter(
    (dep) => !d.state.tasks.some((x) => x.id === dep && (x.status === 'done' || x.status === 'skipped')),
  );
  if (open.length) return `task ${t.id} waits for ${open.join(', ')}`;
  return `task ${t.id} is in lane ${t.lane}; an earlier lane has unfinished tasks`;
}

/**
 * Refuses a task move on a workflow not in progress; how it goes on when it can (`resumeItFirst`). One paused at a
 * user's request says so (`paused_by`, `pause_reason`): the MCP server tells the agent to stop, not to resume it.
 */
function assertActive(d: Draft, action: string) {
  const s = d.state;
  if (s.status !== 'in_progress') {
    const hint = isResumable(s.status) ? resumeItFirst : '';
    throw invalidTransition(`cannot ${action}: the workflow is ${s.status}${hint}`, {
      current_status: s.status,
      ...(pausedByUser(s) ? { paused_by: s.pause_asked_by ?? 'user', pause_reason: s.pause_reason } : {}),
    });
  }
}

/** Starts a task; `asked` is what the caller asked for (a completion starts its task first), as refusals say it. */
export function startTask(d: Draft, id: string, asked: 'start' | 'complete' = 'start'): void {
  const t = findTask(d, id);
  const why = whyNotRunnable(d, t);
  if (why) throw invalidTransition(`cannot ${asked} ${id}: ${why}`, { task_id: id, task_status: t.status });
  if (d.state.pause_requested) {
    throw invalidTransition(`cannot ${asked} ${id}: a pause is requested; ${pauseHoldsBack}`, {
      current_status: d.state.status,
    });
  }
  if (d.state.status === 'pending') d.emit({ type: 'workflow.started', data: {} });
  else assertActive(d, `${asked} ${id}`);
  d.emit({ type: 'task.started', task_id: id, data: {} });
}

/**
 * An agent conversation the hooks follow is open on the workflow (Baton created it for that conversation, whose
 * session has not ended): its work is over only when the conversation says so (`finishedWork`, at the next new
 * conversation), not when its last task is marked done (the user may ask for more in the same conversation).
 */
const followedOpen = (s: WorkflowState) => s.auto_tracked === true && conversationOpen(s);

/**
 * The task list's work is over (`tasksOver`: every task finished, or only an earlier plan's left) and no conversation
 * is open on the workflow: at this boundary it completes.
 */
const workOver = (s: WorkflowState) => tasksOver(s.tasks) && !followedOpen(s);

function completeWorkflow(d: Draft) {
  d.emit({ type: 'workflow.completed', data: {} });
  endOpenSession(d, 'completed', d.state.last_snapshot?.id ?? null);
}

/**
 * What happens at a task boundary: complete the workflow (`workOver`), or honour a requested pause (which takes
 * effect, or waits for the agent's turn to end when this boundary finished every task mid-turn); the pause's
 * snapshot when it took effect.
 */
function atBoundary(d: Draft, git: GitCapture): { paused_snapshot_id: string | null } {
  if (workOver(d.state)) {
    completeWorkflow(d);
    return { paused_snapshot_id: null };
  }
  const honoured = honourRequestedPause(d, git);
  return { paused_snapshot_id: honoured?.outcome === 'paused' ? honoured.snapshot.id : null };
}

export interface TaskEndResult {
  task: Task;
  snapshot_id: string | null;
  checkpoint: string | null;
  paused: boolean;
  workflow_status: string;
  /** Every task is finished, and the workflow completes when the agent conversation open on it ends. */
  completes_with_conversation?: true;
  /** A requested pause this boundary did not take: what it still waits for (as `baton status`'s `pause_waits_for`). */
  pause_waits_for?: PauseWaits;
  /** The same in words, as `baton status` says them: "pause requested, when the agent's turn ends". */
  pause_waits?: string;
}

/** A requested pause still waiting after a task's end (`TaskEndResult`'s `pause_waits_for`); none otherwise. */
function pauseStillWaiting(s: WorkflowState): Pick<TaskEndResult, 'pause_waits_for' | 'pause_waits'> {
  const waits = s.status === 'in_progress' && s.pause_requested ? pauseWaitsFor(s) : null;
  return waits ? { pause_waits_for: waits, pause_waits: pauseRequestedWords(waits) } : {};
}

/** A pause the caller asks for at this task's boundary (`baton run --max-tasks`): its reason and trigger. */
export interface PauseAfter {
  reason: string;
  trigger: SnapshotTrigger;
}

/**
 * Completes a task; every completion takes a snapshot and a checkpoint, and is a task boundary. `pauseAfter` pauses
 * the workflow there (unless it completes, or a requested pause takes effect instead) with that one snapshot.
 */
export function completeTask(
  d: Draft,
  id: string,
  summary: string | null,
  git: GitCapture,
  pauseAfter: PauseAfter | null = null,
): TaskEndResult {
  const t = findTask(d, id);
  // a failure someone recorded (from another machine, a moment ago) is not overwritten by a completion decided
  // without it: completing it is asked for again, after starting it again on purpose
  if (t.status === 'failed')
    throw invalidTransition(
      `cannot complete ${id}: task ${id} failed${t.note ? ` (${t.note})` : ''}; to complete it anyway, start it again first, then complete it`,
      { task_id: id, task_status: t.status },
    );
  if (t.status !== 'in_progress') startTask(d, id, 'complete');
  else assertActive(d, `complete ${id}`);
  d.emit({ type: 'task.completed', task_id: id, data: { summary } });
  // the pause's snapshot, when one takes effect here, is the one the checkpoint is made of
  const over = workOver(d.state);
  const honoured = over ? null : honourRequestedPause(d, git);
  const requested = honoured?.outcome === 'paused' ? honoured.snapshot : null;
  const asked = !requested && pauseAfter !== null && !tasksOver(d.state.tasks);
  const snapshot =
    requested ??
    (asked
      ? pauseNow(d, pauseAfter.reason, pauseAfter.trigger, git, null)
      : takeSnapshot(d, 'task_complete', `task ${id} completed`, git));
  const checkpoint = makeCheckpoint(d, t.title, snapshot);
  if (over) completeWorkflow(d);
  const waits = d.state.status === 'in_progress' && tasksOver(d.state.tasks) && followedOpen(d.state);
  return {
    task: findTask(d, id),
    snapshot_id: snapshot.id,
    checkpoint: checkpoint.name,
    paused: d.state.status === 'paused',
    workflow_status: d.state.status,
    ...(waits ? { completes_with_conversation: true as const } : {}),
    ...pauseStillWaiting(d.state),
  };
}

export function failTask(d: Draft, id: string, reason: string | null, git: GitCapture): TaskEndResult {
  const t = findTask(d, id);
  assertActive(d, `fail ${id}`);
  if (t.status !== 'in_progress') {
    throw invalidTransition(`cannot fail ${id}: task ${id} is ${t.status}, not in progress`, {
      task_status: t.status,
    });
  }
  d.emit({ type: 'task.failed', task_id: id, data: { reason } });
  const { paused_snapshot_id } = atBoundary(d, git);
  return {
    task: findTask(d, id),
    snapshot_id: paused_snapshot_id,
    checkpoint: null,
    paused: paused_snapshot_id !== null,
    workflow_status: d.state.status,
    ...pauseStillWaiting(d.state),
  };
}

export function blockTask(d: Draft, id: string, reason: string | null, git: GitCapture): TaskEndResult {
  const t = findTask(d, id);
  if (d.state.status !== 'pending') assertActive(d, `block ${id}`);
  if (t.status === 'done' || t.status === 'skipped' || t.status === 'blocked') {
    throw invalidTransition(`cannot block ${id}: task ${id} is ${t.status}`, { task_status: t.status });
  }
  d.emit({ type: 'task.blocked', task_id: id, data: { reason } });
  const { paused_snapshot_id } =
    t.status === 'in_progress' ? atBoundary(d, git) : { paused_snapshot_id: null };
  return {
    task: findTask(d, id),
    snapshot_id: paused_snapshot_id,
    checkpoint: null,
    paused: paused_snapshot_id !== null,
    workflow_status: d.state.status,
    ...pauseStillWaiting(d.state),
  };
}

export function unblockTask(d: Draft, id: string): void {
  const t = findTask(d, id);
  if (t.status !== 'blocked')
    throw invalidTransition(`cannot unblock ${id}: task ${id} is ${t.status}`, { task_status: t.status });
  d.emit({ type: 'task.unblocked', task_id: id, data: {} });
}

export function skipTask(d: Draft, id: string, reason: string | null, git: GitCapture): void {
  const t = findTask(d, id);
  if (t.status === 'done' || t.status === 'skipped' || t.status === 'in_progress') {
    throw invalidTransition(`cannot skip ${id}: task ${id} is ${t.status}`, { task_status: t.status });
  }
  d.emit({ type: 'task.skipped', task_id: id, data: { reason } });
  if (d.state.status === 'in_progress') atBoundary(d, git);
}
