import type { WorkflowStatus } from './types.js';

/**
 * The dashboard's copy of the status machine's two rules (src/core/workflow-machine.ts: isTerminal, isResumable):
 * web/ may import only types from src/, so the rules are restated here once, for every status (a new status fails
 * `npm run typecheck` until it is placed), and test/lint/web-status-rules.test.ts checks them against the core's.
 */
const rule = {
  pending: 'open',
  in_progress: 'open',
  blocked: 'open',
  paused: 'resumable',
  interrupted: 'resumable',
  completed: 'terminal',
  failed: 'terminal',
  cancelled: 'terminal',
} as const satisfies Record<WorkflowStatus, 'open' | 'resumable' | 'terminal'>;

/** Finished for good: nothing moves a completed, failed or cancelled workflow again. */
export const isTerminal = (s: WorkflowStatus) => rule[s] === 'terminal';
/** Paused or interrupted: resume (or recovery) continues it. */
export const isResumable = (s: WorkflowStatus) => rule[s] === 'resumable';
