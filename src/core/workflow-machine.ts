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

export const terminalStatuses: readonly WorkflowStatus[] = ['completed', 'failed', 'cancelled'];
export const resumableStatuses: readonly WorkflowStatus[] = ['paused', 'interrupted'];

export const isTerminal = (s: WorkflowStatus) => terminalStatuses.includes(s);
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
