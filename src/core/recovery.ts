import type { InterruptRecovery } from './schemas/interrupt-recovery.js';
import type { WorkflowState } from './schemas/state.js';

export interface RecoveryOption {
  type: 'checkpoint' | 'live_state' | 'fresh';
  target: string;
  description: string;
  /** Events recorded since the checkpoint, or seconds since the live state was saved. */
  data_loss: string;
  actions_since: number | null;
  seconds_since: number | null;
  /** The size of the context this option would hand over, and its price for the agent's model (the service adds them). */
  context_tokens?: number;
  estimated_cost_usd?: number;
}

export interface RecoveryPlan {
  workflow_id: string;
  status: WorkflowState['status'];
  interrupted_at: string | null;
  interrupt_reason: string | null;
  last_known_state: { task: string | null; last_event_seq: number; last_activity: string };
  options: RecoveryOption[];
  recommended: RecoveryOption['type'];
}

/** The Go Team recovery options: back to a checkpoint (with what is lost), the live state, or a fresh start. */
export function recoveryOptions(s: WorkflowState, liveSavedAt: string | null, now: string): RecoveryPlan {
  const options: RecoveryOption[] = [];
  const last = s.checkpoints[s.checkpoints.length - 1];
  if (last) {
    const actions = s.version - last.seq;
    options.push({
      type: 'checkpoint',
      target: last.name,
      description: `Resume from the last checkpoint ${last.name} (safe)`,
      data_loss: `${actions} action${actions === 1 ? '' : 's'} since the checkpoint`,
      actions_since: actions,
      seconds_since: null,
    });
  }
  // The folded state is saved with every commit; a periodic live-state save can only be as recent.
  const savedAt = liveSavedAt && liveSavedAt > s.updated_at ? liveSavedAt : s.updated_at;
  const seconds = Math.max(0, Math.round((Date.parse(now) - Date.parse(savedAt)) / 1000));
  options.push({
    type: 'live_state',
    target: 'live state',
    description: `Resume from the last auto-save (the live state) at ${savedAt}`,
    data_loss: `~${seconds} seconds since the last save`,
    actions_since: null,
    seconds_since: seconds,
  });
  options.push({
    type: 'fresh',
    target: 'first task',
    description: 'Start fresh: every task back to pending',
    data_loss: 'all task progress',
    actions_since: null,
    seconds_since: null,
  });
  const running = s.tasks.find((t) => t.status === 'in_progress');
  return {
    workflow_id: s.id,
    status: s.status,
    interrupted_at: s.interrupted_at,
    interrupt_reason: s.interrupt_reason,
    last_known_state: { task: running?.id ?? null, last_event_seq: s.version, last_activity: s.updated_at },
    options,
    recommended: last ? 'checkpoint' : 'live_state',
  };
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
  const plan = recoveryOptions(s, null, s.updated_at);
  const cp = plan.options.find((o) => o.type === 'checkpoint');
  return {
    detected_by: detectedBy,
    last_heartbeat: lastHeartbeat,
    last_known_state: { status: s.status, ...plan.last_known_state },
    last_checkpoint: cp?.target ?? null,
    actions_since_checkpoint: cp?.actions_since ?? null,
  };
}
