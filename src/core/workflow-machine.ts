import { invalidTransition } from './errors.js';
import type { WorkflowStatus } from './schemas/workflow.js';

/**
 * The workflow status machine: Amelia's transitions plus `interrupted`, the state of a workflow that stopped
 * without being asked (crash, lost heartbeat, timeout), as the Go Team design tells paused from interrupted.
 */
export const transitions: Readonly<Record<WorkflowStatus, readonly WorkflowStatus[]>> = {
  pending: ['in_progress', 'cancelled'],
  in_progress: ['blocked', 'paused', 'interrupted', 'completed', 'failed', 'cancelled'],
  blocked: ['in_progress', 'paused', 'interrupted', 'failed', 'cancelled'],
  paused: ['in_progress', 'cancelled'],
  interrupted: ['in_progress', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export type TerminalStatus = 'completed' | 'failed' | 'cancelled';
/** Stopped, not finished: a paused (asked) or interrupted (crash, lost heartbeat, timeout) workflow resumes. */
export type ResumableStatus = 'paused' | 'interrupted';

export const terminalStatuses: readonly TerminalStatus[] = ['completed', 'failed', 'cancelled'];
export const resumableStatuses: readonly ResumableStatus[] = ['paused', 'interrupted'];

/** Finished for good: nothing moves a completed, failed or cancelled workflow again. */
export const isTerminal = (s: WorkflowStatus): s is TerminalStatus => terminalStatuses.some((t) => t === s);
/** Whether `baton resume` (or recovery) can continue a workflow in this status. */
export const isResumable = (s: WorkflowStatus): s is ResumableStatus =>
  resumableStatuses.some((r) => r === s);
export const canTransition = (from: WorkflowStatus, to: WorkflowStatus) => transitions[from].includes(to);

/** Throws `invalid_transition`, naming the current state and what would have been allowed. */
export function assertTransition(from: WorkflowStatus, to: WorkflowStatus, action: string): void {
  if (canTransition(from, to)) return;
  const allowed = Object.entries(transitions)
    .filter(([, targets]) => targets.includes(to))
    .map(([source]) => source);
  throw invalidTransition(
    `cannot ${action}: the workflow is ${from}` +
      (allowed.length ? ` (only a workflow that is ${allowed.join(' or ')} can)` : ''),
    { current_status: from, target_status: to },
  );
}
