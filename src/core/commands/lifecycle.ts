import type { Draft } from '../draft.js';
import { invalidInput, invalidTransition } from '../errors.js';
import type { GitCapture } from '../schemas/git-state.js';
import type { InterruptRecovery } from '../schemas/interrupt-recovery.js';
import type { CheckpointRef, SnapshotTrigger } from '../schemas/workflow.js';
import { assertTransition, isResumable, isTerminal } from '../workflow-machine.js';
import { cliWord } from '../surface-words.js';
import { askedBy, type Asker } from '../teammate-act.js';
import { clip } from '../clip.js';
import { counted } from '../counted.js';
import type { Task } from '../schemas/workflow.js';
import { unfinishedTasks } from '../task-graph.js';
import { makeCheckpoint, takeSnapshot } from './snapshots.js';

/** Ends the running session, if one runs (an agent's SessionEnd may have ended it already). */
export const endOpenSession = (d: Draft, reason: string, snapshotId: string | null) => {
  const cur = d.state.sessions[d.state.sessions.length - 1];
  if (cur && cur.ended_at === null)
    d.emit({ type: 'session.ended', data: { reason, snapshot_id: snapshotId } });
};

/** Why a workflow is `interrupted`: it stopped without being asked (`crash`), or its driver was stopped (`stopped`). */
export type InterruptTrigger = Extract<SnapshotTrigger, 'crash' | 'stopped'>;

/**
 * The workflow stopped in the middle of its work: a crash snapshot (or, when its driver was stopped by a signal, a
 * `stopped` one), then `interrupted`.
 */
export function interrupt(
  d: Draft,
  reason: string,
  git: GitCapture,
  recovery?: InterruptRecovery,
  trigger: InterruptTrigger = 'crash',
) {
  assertTransition(d.state.status, 'interrupted', 'mark the workflow interrupted');
  const snapshot = takeSnapshot(d, trigger, reason, git);
  d.emit({
    type: 'workflow.interrupted',
    data: recovery ? { reason, snapshot_id: snapshot.id, recovery } : { reason, snapshot_id: snapshot.id },
  });
  endOpenSession(d, trigger, snapshot.id);
  return snapshot;
}

/**
 * The workflow goes on in `to`, another worktree of its repository, since its own is gone (removed with its branch
 * kept): from now on it is that worktree's. Only an incomplete workflow moves; false when it is there already.
 */
export function moveWorktree(d: Draft, to: string, reason: string): boolean {
  if (isTerminal(d.state.status))
    throw invalidTransition(
      `workflow ${d.state.id} is ${d.state.status}: it does not move to another worktree`,
    );
  if (d.state.worktree === to) return false;
  d.emit({ type: 'workflow.moved', data: { from: d.state.worktree, to, reason } });
  return true;
}

/** The Go Team design's abandon: the workflow is cancelled and never offered for resume again. */
export function abandon(d: Draft, reason: string | null, by?: Asker): void {
  assertTransition(d.state.status, 'cancelled', 'abandon');
  d.emit({ type: 'workflow.cancelled', data: { reason: reason ?? 'abandoned', ...askedBy(by) } });
  endOpenSession(d, 'abandoned', null);
}

/**
 * The work is done, said by a person: the workflow is completed (a workflow in progress only: a paused one is resumed
 * first), and the next conversation in its worktree starts a new one. Baton completes one by itself when its tasks are
 * all done and its conversation is over (`finishWork`); this is for what it cannot see (a quit it was not told of).
 * Tasks not done are named and refused unless `force`: a completed workflow is never resumed, so work left open by
 * mistake would be lost to the next conversation. Forced, they stay as they were (nobody did or skipped them).
 */
export function complete(d: Draft, reason: string | null, force = false): void {
  if (isResumable(d.state.status))
    throw invalidTransition(
      `cannot complete the workflow: it is ${d.state.status}; resume it first (${cliWord('resume')}), then complete it`,
      { current_status: d.state.status, target_status: 'completed' },
    );
  assertTransition(d.state.status, 'completed', 'complete the workflow');
  const open = unfinishedTasks(d.state.tasks);
  if (open.length && !force)
    throw invalidTransition(
      `cannot complete the workflow: ${counted(open.length, 'task is', 'tasks are')} not done (${openTasksPhrase(open)}); \`baton complete -w ${d.state.id} --force\` completes it with ${open.length === 1 ? 'it' : 'them'} left open, \`baton abandon -w ${d.state.id}\` ends work that is not done`,
      {
        current_status: d.state.status,
        target_status: 'completed',
        open_tasks: open.map((t) => ({ id: t.id, title: t.title, status: t.status })),
      },
    );
  d.emit({ type: 'workflow.completed', data: { reason: reason ?? 'completed by the user' } });
  endOpenSession(d, 'completed', null);
}

export function blockWorkflow(d: Draft, reason: string | null): void {
  assertTransition(d.state.status, 'blocked', 'block the workflow');
  d.emit({ type: 'workflow.blocked', data: { reason } });
}

export function unblockWorkflow(d: Draft): void {
  if (d.state.status !== 'blocked') {
    throw invalidTransition(`cannot unblock: the workflow is ${d.state.status}, not blocked`, {
      current_status: d.state.status,
    });
  }
  d.emit({ type: 'workflow.unblocked', data: {} });
}

/**
 * A named checkpoint: a snapshot plus the git commit, on demand (trigger `manual`) or taken by Baton on its own after
 * real work (`scheduled`).
 */
export function checkpoint(
  d: Draft,
  name: string,
  git: GitCapture,
  trigger: 'manual' | 'scheduled' = 'manual',
): CheckpointRef {
  if (!name.trim()) throw invalidInput('a checkpoint needs a name (--name)');
  if (isTerminal(d.state.status)) {
    throw invalidTransition(`cannot checkpoint: the workflow is ${d.state.status}`, {
      current_status: d.state.status,
    });
  }
  const snapshot = takeSnapshot(d, trigger, `checkpoint ${name}`, git);
  return makeCheckpoint(d, name, snapshot);
}

/** A snapshot without a change of state: before a context compaction (trigger `exhaustion`), on request. */
export function snapshotNow(d: Draft, trigger: SnapshotTrigger, reason: string | null, git: GitCapture) {
  if (isTerminal(d.state.status)) {
    throw invalidTransition(`cannot snapshot: the workflow is ${d.state.status}`, {
      current_status: d.state.status,
    });
  }
  return takeSnapshot(d, trigger, reason, git);
}

/** Tasks left open, said: `A "title" (in_progress), B "title" (pending)`. */
export const openTasksPhrase = (open: readonly Pick<Task, 'id' | 'title' | 'status'>[]) =>
  open.map((t) => `${t.id} "${clip(t.title, 60)}" (${t.status})`).join(', ');
