import { queueStanding, type QueueStanding, type UnregisteredWorker } from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { ProcessPorts } from './runtime/ownership.js';
import { runningOn } from './work-submit.js';

/**
 * Where a workflow's queued work stands with the workers (the one place that says whether anything can take it):
 * running, waiting for a worker that reaches it, or stuck with none that can, and the `baton worker` that would.
 * Null when it is not queued, or the store keeps no worker registry (it cannot tell). `ports`: a worker of this
 * machine whose process is gone counts as gone before its row expires.
 */
export async function queueStandingOf(
  store: Store,
  workflowId: string,
  ports?: Pick<ProcessPorts, 'liveness'>,
): Promise<QueueStanding | null> {
  const entry = await store.workQueue?.get(workflowId);
  if (!entry || entry.state !== 'queued' || !store.workers) return null;
  const running = (await runningOn(store, entry)) !== null;
  // a worker of this machine whose process is verifiably gone is gone, though its row has not expired yet
  const workers = (await store.workers.list()).map((w) =>
    !w.expired && ports?.liveness({ host: w.host, pid: w.pid, start: null }) === 'dead'
      ? { ...w, expired: true }
      : w,
  );
  // a worker at work holds its workflows' leases: one that holds some but is not registered predates the registry
  const registered = new Set(workers.map((w) => w.owner));
  const unregistered = new Map<string, UnregisteredWorker>();
  for (const l of (await store.leases?.list()) ?? [])
    if (l.kind === 'worker' && !l.expired && !registered.has(l.owner))
      unregistered.set(l.owner, { host: l.host, pid: l.pid });
  return queueStanding(entry, running, workers, [...unregistered.values()]);
}
