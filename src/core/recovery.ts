import { counted } from './counted.js';
import { invalidTransition } from './errors.js';
import { shortHash } from './short-hash.js';
import { nothingRunsIt, type NextStep } from './runtime/run-driven.js';
import type { InterruptRecovery } from './schemas/interrupt-recovery.js';
import type { WorkflowState } from './schemas/state.js';
import { currentTask, inProgressTasks } from './task-graph.js';
import { isResumable, isTerminal } from './workflow-machine.js';

export interface RecoveryOption {
  type: 'checkpoint' | 'live_state' | 'fresh';
  target: string;
  description: string;
  /** What the option gives up, in recorded actions and work since the last save (never in wall time). */
  data_loss: string;
  /** Actions (events) recorded after the point this option goes back to: 0 for the live state. */
  actions_since: number | null;
  /**
   * Seconds the agent worked after the last event was saved and before the stop was noticed (its last heartbeat),
   * when Baton noticed the stop itself: fixed at the interruption, it does not grow while nobody runs.
   */
  seconds_since: number | null;
  /** The size of the context this option would hand over, and its price for the agent's model (the service adds them). */
  context_tokens?: number;
  estimated_cost_usd?: number;
  /** What choosing it would change: task statuses, and the worktree's branch (the service adds it). */
  changes?: OptionChanges;
}

export interface OptionChanges {
  tasks: { task_id: string; from: string; to: string }[];
  /** Null: the worktree and its branch are left as they are. */
  git: {
    branch: string | null;
    from: string | null;
    to: string;
    moves_branch: boolean;
    commits: { sha: string; subject: string }[];
    commits_count: number;
    files: { status: string; path: string }[];
    files_count: number;
    /** The commits that leave the branch stay reachable from a ref under this prefix (named at restore time). */
    backup_ref_prefix: string | null;
    dirty_files: string[];
  } | null;
  note: string;
}

/** Why no recovery option can be chosen now, and what to run first. */
export interface RecoveryRefusal {
  reason: string;
  /** The command that makes the workflow recoverable; null when none does (not started, or finished for good). */
  command: string | null;
}

export interface RecoveryPlan {
  workflow_id: string;
  status: WorkflowState['status'];
  /** Whether an option can be chosen now: only a paused or interrupted workflow is recovered. */
  recoverable: boolean;
  /** Why not, when it is not: the options are then what recovery would offer once it is. */
  refusal: RecoveryRefusal | null;
  interrupted_at: string | null;
  interrupt_reason: string | null;
  last_known_state: { task: string | null; last_event_seq: number; last_activity: string };
  options: RecoveryOption[];
  recommended: RecoveryOption['type'];
  /**
   * What recovering costs the agent's own conversation, when a crash cut off one the next `baton run` could go on in
   * (`sessionToGoOn`): any option starts that run in a fresh agent session with the briefing instead. Null otherwise.
   */
  conversation: string | null;
}

/**
 * Recovery goes on from where a workflow stopped: a running one has nothing to recover (its next session goes on from
 * where it is), so going back to a checkpoint or starting over needs it paused first, now, not at the task boundary
 * a plain `baton pause` waits for. One that never started or is finished for good has nothing any command changes.
 * `next` is what goes on with an in-progress workflow nothing runs now (its `baton run` ended or has not started).
 */
export function recoveryRefusal(s: WorkflowState, next: NextStep | null = null): RecoveryRefusal | null {
  if (isResumable(s.status)) return null;
  if (isTerminal(s.status))
    return {
      reason:
        'it is finished for good: nothing recovers or resumes it; new work is a new workflow (`baton create`, or a new conversation with the hooks)',
      command: null,
    };
  if (s.status === 'pending')
    return {
      reason:
        'it has not started, so there is nothing to recover (`baton task start <task>` or `baton run` starts it)',
      command: null,
    };
  const goesOn = next
    ? nothingRunsIt(next)
    : "it is not stopped, so there is nothing to recover: its next session (the agent's next prompt or new conversation here with the hooks, or `baton run`) goes on from where it is";
  return {
    reason: `${goesOn}. Recovery is for a paused or interrupted workflow; to go back to a checkpoint or start over anyway, pause it now first`,
    // a plain pause waits for the task under way to end
    command: `baton pause${inProgressTasks(s.tasks).length > 0 ? ' --force' : ''} -w ${s.id}`,
  };
}

/** The refusal in one line: why, then the command to run first. */
export const refusalText = (r: RecoveryRefusal) => (r.command ? `${r.reason}: \`${r.command}\`` : r.reason);

/** Refuses (invalid_transition) to recover a workflow that is not paused or interrupted, saying what to do instead. */
export function assertRecoverable(s: WorkflowState, next: NextStep | null = null): void {
  const refusal = recoveryRefusal(s, next);
  if (refusal)
    throw invalidTransition(`cannot recover ${s.id} (${s.status}): ${refusalText(refusal)}`, {
      current_status: s.status,
      command: refusal.command,
    });
}

/** Whether the worktree is as the workflow's latest snapshot saw it (branch, HEAD, changed files): unknown without git. */
export type WorktreeAgreement = 'agrees' | 'differs' | 'unknown';

export interface RecoveryInput {
  /** What goes on with an in-progress workflow nothing runs now (see `recoveryRefusal`). */
  next?: NextStep | null;
  worktree?: WorktreeAgreement;
}

/**
 * The Go Team recovery options: back to a checkpoint (with what is lost), the live state, or a fresh start. The live
 * state loses no recorded action, so it is the one recommended when the worktree is still as the workflow last saw
 * it; the checkpoint is recommended only when they differ (or nobody could compare them), as it puts the worktree
 * and the task states back together at a known point, unless its restore would set work aside (`recommendedOption`).
 */
export function recoveryOptions(
  s: WorkflowState,
  liveSavedAt: string | null,
  input: RecoveryInput = {},
): RecoveryPlan {
  const options: RecoveryOption[] = [];
  const last = s.checkpoints[s.checkpoints.length - 1];
  if (last) {
    const actions = s.version - last.seq;
    options.push({
      type: 'checkpoint',
      target: last.name,
      description: `Resume from the last checkpoint ${last.name}: its task states, and its commit in the worktree`,
      data_loss: `${counted(actions, 'action')} since the checkpoint`,
      actions_since: actions,
      seconds_since: null,
    });
  }
  // The folded state is saved with every commit, so the live state loses no recorded action. What it cannot have
  // is the agent's work after its last event: from that event to the last sign of life before the stop.
  // A live-state save later than the last event counts only while the workflow runs: once it is stopped, a save
  // (the one debounced after the stopping commit) holds nothing the stop did not, and the options must stay what
  // recovery.json said at that commit, as no event comes with the save to write the file again.
  const known = s.interruption?.last_known_state.last_activity ?? null;
  const lastSeen = s.interruption?.last_heartbeat ?? null;
  const laterSave = liveSavedAt && liveSavedAt > s.updated_at && !isResumable(s.status) ? liveSavedAt : null;
  const savedAt = known ?? laterSave ?? s.updated_at;
  const unsaved =
    known && lastSeen ? Math.max(0, Math.round((Date.parse(lastSeen) - Date.parse(known)) / 1000)) : null;
  options.push({
    type: 'live_state',
    target: 'live state',
    description: `Resume from the last auto-save (the live state): every event up to ${savedAt}`,
    data_loss: `0 actions (every event is saved as it happens)${unsaved ? `; the agent's last ~${unsaved} s of work before it stopped were not recorded` : ''}`,
    actions_since: 0,
    seconds_since: unsaved,
  });
  options.push({
    type: 'fresh',
    target: 'first task',
    description: 'Start fresh: every task back to pending',
    data_loss: 'all task progress',
    actions_since: null,
    seconds_since: null,
  });
  const running = currentTask(s.tasks);
  const refusal = recoveryRefusal(s, input.next ?? null);
  return {
    workflow_id: s.id,
    status: s.status,
    recoverable: refusal === null,
    refusal,
    interrupted_at: s.interrupted_at,
    interrupt_reason: s.interrupt_reason,
    last_known_state: { task: running?.id ?? null, last_event_seq: s.version, last_activity: s.updated_at },
    options,
    recommended: last && input.worktree !== 'agrees' ? 'checkpoint' : 'live_state',
    conversation:
      s.status === 'interrupted' && s.agent?.resume_token
        ? `any option starts the next \`baton run\` in a fresh agent session with the briefing; to go on in the agent's own conversation instead, do not recover: \`baton run -w ${s.id}\``
        : null,
  };
}

/**
 * The option to recommend once the checkpoint's git restore is planned: the checkpoint only while going back sets
 * nothing of the worktree aside. A restore that would move commits off the branch (work an agent committed before it
 * was killed) or would have to put uncommitted changes away keeps them only on a backup ref or a stash, while going on
 * from the live state keeps them where they are: the live state is recommended then, the checkpoint offered beside it
 * with what it would move.
 */
export function recommendedOption(
  recommended: RecoveryOption['type'],
  git: OptionChanges['git'],
): RecoveryOption['type'] {
  if (recommended !== 'checkpoint' || !git) return recommended;
  return git.commits_count > 0 || git.dirty_files.length > 0 ? 'live_state' : 'checkpoint';
}

/**
 * The recovery metadata written with an interruption Baton detected itself: the last known state and the actions
 * since the last checkpoint (the same count `recoveryOptions` offers as the checkpoint option's data loss).
 */
export function interruptRecovery(
  s: WorkflowState,
  detectedBy: InterruptRecovery['detected_by'],
  lastHeartbeat: string | null,
): InterruptRecovery {
  const plan = recoveryOptions(s, null);
  const cp = plan.options.find((o) => o.type === 'checkpoint');
  return {
    detected_by: detectedBy,
    last_heartbeat: lastHeartbeat,
    last_known_state: { status: s.status, ...plan.last_known_state },
    last_checkpoint: cp?.target ?? null,
    actions_since_checkpoint: cp?.actions_since ?? null,
  };
}

/**
 * The checkpoint option in words once its git restore is planned: whether the branch moves and the commits that
 * would leave it (kept on a backup ref by the restore), so that moving work off the branch is never left unsaid.
 */
export function checkpointDescription(option: RecoveryOption, git: OptionChanges['git']): string {
  if (!git) return option.description;
  const branch = git.branch ?? 'HEAD';
  const to = shortHash(git.to);
  const n = git.commits_count;
  const move = !git.moves_branch
    ? `${branch} stays at ${to}`
    : n > 0
      ? `moves ${branch} back to ${to}: ${n} commit${n === 1 ? ' leaves' : 's leave'} the branch (kept on a backup ref)`
      : `moves ${branch} to ${to}`;
  return `${option.description}; ${move}`;
}
