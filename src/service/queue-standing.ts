import { queueStanding, type QueueStanding } from '../core/index.js';
import type { Store } from '../storage/store.js';
import { runningOn } from './work-submit.js';

/**
 * Where a workflow's queued work stands with the workers (the one place that says whether anything can take it):
 * running, waiting for a worker that reaches it, or stuck with none that can, and the `baton worker` that would.
 * Null when it is not queued, or the store keeps no worker registry (it cannot tell).
 */
export async function queueStandingOf(store: Store, workflowId: string): Promise<QueueStanding | null> {
  const entry = await store.workQueue?.get(workflowId);
  if (!entry || entry.state !== 'queued' || !store.workers) return null;
  const running = (await runningOn(store, entry)) !== null;
  return queueStanding(entry, running, await store.workers.list());
}
