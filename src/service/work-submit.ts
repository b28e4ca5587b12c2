import {
  conflict,
  isTerminal,
  runnableClaim,
  submission,
  type SubmitRequest,
  type WorkflowState,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { QueueEntry, WorkQueue } from '../storage/work-queue.js';
import type { BatonService } from './baton-service.js';
import { askWhichRun, type WorkflowRef } from './resolve-workflow.js';

export type { QueueEntry, SubmitRequest };

/** A queue entry as `baton queue` shows it: `running` while the worker that claimed it still holds its lease. */
export type QueueListing = QueueEntry & { running: boolean };

export const noQueue = () =>
  conflict('this store has no work_queue table: workers need the SQLite or PostgreSQL store');

export function workQueueOf(service: BatonService): WorkQueue {
  const q = service.store.workQueue;
  if (!q) throw noQueue();
  return q;
}

/**
 * `baton submit`: queues the workflow to be run by any worker, with its agent profile. Among several conversations'
 * workflows of a worktree it asks which (`askWhichRun`), as a resume does. A workflow that ended, one a
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
  // an agent run queued on a workflow its conversation's recency chose would start a session on a guess: asked instead
  const s = await service.resolve(ref, askWhichRun);
  if (isTerminal(s.status))
    throw conflict(`workflow ${s.id} is ${s.status}: there is nothing left for a worker to run`, {
      status: s.status,
    });
  const held = runnableClaim(s);
  if (held)
    throw conflict(`workflow ${s.id} is ${held}: resume it, then submit it`, {
      status: s.status,
    });
  const { profile, priority, label } = submission(request);
  const current = await q.get(s.id);
  const worker = current ? await runningOn(service.store, current) : null;
  if (current && worker)
    throw conflict(
      `workflow ${s.id} is running on the worker ${worker} with its profile (agent ${current.profile.agent}); submit it again once that run ends, or stop that worker first`,
      { claimed_by: worker },
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

/** The worker running this entry now: the claimer, while it holds the workflow's lease (by the store's clock). */
export async function runningOn(store: Store, e: QueueEntry): Promise<string | null> {
  if (e.state !== 'queued' || !e.claimed_by) return null;
  const lease = await store.leases?.get(e.workflow_id);
  return lease && !lease.expired && lease.owner === e.claimed_by ? lease.owner : null;
}

/**
 * The queue: queued work in the order workers take it (priority, then oldest), then the work done; each queued entry
 * says whether its worker runs it now (an entry claimed by a worker that died reads `running: false` until taken over).
 */
export async function listWork(service: BatonService): Promise<QueueListing[]> {
  const entries = await workQueueOf(service).list();
  return Promise.all(
    entries.map(async (e) => ({ ...e, running: (await runningOn(service.store, e)) !== null })),
  );
}

/**
 * After a commit to a workflow that has ended (`state`): its queued row, when no worker runs it now (one
 * holding its lease finishes the row itself, with its own outcome), is marked done with that end. The workflow ended
 * outside the queue (a `baton run` finished one whose worker died, a person completed or abandoned it): no worker is
 * left to finish the row, and `baton queue` would list it queued, claimed by a dead worker, for good.
 */
export async function closeEnded(store: Store, state: WorkflowState): Promise<void> {
  const q = store.workQueue;
  if (!q || !isTerminal(state.status)) return;
  const e = await q.get(state.id);
  if (e?.state === 'queued' && (await runningOn(store, e)) === null)
    await q.finish(state.id, null, `${state.status} outside the queue`);
}

/**
 * A workflow a person paused while a worker ran it left the queue (`paused: ...`); resuming it queues it again, with
 * the same profile, priority and label, so a worker goes on with it (a resume alone would leave nobody driving it).
 * Null when it was not such work, or the store has no queue.
 */
export async function requeuePaused(service: BatonService, workflowId: string): Promise<QueueEntry | null> {
  const q = service.store.workQueue;
  const e = q ? await q.get(workflowId) : null;
  if (!q || !e || e.state !== 'done' || !e.outcome?.startsWith('paused')) return null;
  return q.submit({
    workflow_id: e.workflow_id,
    worktree: e.worktree,
    label: e.label,
    priority: e.priority,
    profile: e.profile,
    submitted_by: service.options.actor ?? 'cli',
  });
}
