import { conflict, isTerminal, submission, type SubmitRequest } from '../core/index.js';
import type { QueueEntry, WorkQueue } from '../storage/work-queue.js';
import type { BatonService } from './baton-service.js';
import type { WorkflowRef } from './resolve-workflow.js';

export type { QueueEntry, SubmitRequest };

export const noQueue = () =>
  conflict('this store has no work_queue table: workers need the SQLite or PostgreSQL store');

export function workQueueOf(service: BatonService): WorkQueue {
  const q = service.store.workQueue;
  if (!q) throw noQueue();
  return q;
}

/**
 * `baton submit`: queues the workflow to be run by any worker, with its agent profile. A workflow that ended cannot be
 * submitted; submitting again replaces the profile, priority and label (and queues it again if it was done).
 */
export async function submitWork(
  service: BatonService,
  ref: WorkflowRef,
  request: SubmitRequest,
): Promise<QueueEntry> {
  const q = workQueueOf(service);
  const s = await service.resolve(ref);
  if (isTerminal(s.status))
    throw conflict(`workflow ${s.id} is ${s.status}: there is nothing left for a worker to run`, {
      status: s.status,
    });
  const { profile, priority, label } = submission(request);
  return q.submit({
    workflow_id: s.id,
    worktree: s.worktree,
    label,
    priority,
    profile,
    submitted_by: service.options.actor ?? 'cli',
  });
}

/** The queue: queued work in the order workers take it (priority, then oldest), then the work done. */
export function listWork(service: BatonService): Promise<QueueEntry[]> {
  return workQueueOf(service).list();
}
