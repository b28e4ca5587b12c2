import { queuedNext, runDriven, runNext, type NextStep, type WorkflowState } from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { ProcessPorts } from './runtime/ownership.js';
import { queueStandingOf } from './queue-standing.js';

/**
 * What goes on with an in-progress workflow Baton's own driver runs, when no driver holds it now: the `baton run` to
 * type, or the worker queue it waits in. Null while a driver holds its lease (read after the crash watch, so a held
 * lease is a live one), for a workflow an agent of the person's own runs (hooks), and where the store keeps no leases.
 */
export async function nextStep(
  store: Store,
  s: WorkflowState,
  ports?: Pick<ProcessPorts, 'liveness'>,
): Promise<NextStep | null> {
  if (s.status !== 'in_progress' || !runDriven(s) || !store.leases) return null;
  if (await store.leases.get(s.id)) return null;
  const queued = await store.workQueue?.get(s.id);
  if (queued?.state !== 'queued') return runNext(s.id);
  return queuedNext((await queueStandingOf(store, s.id, ports))?.stuck ?? null);
}
