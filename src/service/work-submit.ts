import { conflict, isTerminal, runnableClaim, submission, type SubmitRequest } from '../core/index.js';
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
 * `baton submit`: queues the workflow to be run by any worker, with its agent profile. A workflow that ended, one a
 * person paused, and one a worker runs now cannot be submitted (each refusal says what to do instead); submitting
 * again replaces the profile, priority and label, and the submission time (its place among work of equal priority),
 * and queues it again if it was done.
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
  const held = runnableClaim(s);
  if (held)
    throw conflict(`workflow ${s.id} is ${held.replace(', then submit it again', ', then submit it')}`, {
      status: s.status,
    });
  const { profile, priority, label } = submission(request);
  const current = await q.get(s.id);
  const lease =
    current?.state === 'queued' && current.claimed_by ? await service.store.leases?.get(s.id) : null;
  if (lease && !lease.expired && lease.owner === current?.claimed_by)
    throw conflict(
      `workflow ${s.id} is running on the worker ${lease.owner} with its profile (agent ${current.profile.agent}); submit it again once that run ends, or stop that worker first`,
      { claimed_by: lease.owner },
    );
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
