import { foldEvents, isTerminal, notFound, type WorkflowState } from '../core/index.js';
import type { ExecutorRow } from '../storage/executor-registry.js';
import type { Store } from '../storage/store.js';

/** Recomputes the tables that queries read from the event log, the source of truth. */
export async function rebuild(store: Store, workflowId?: string) {
  const ids = workflowId ? [workflowId] : await store.listWorkflowIds();
  let events = 0;
  for (const id of ids) {
    const log = await store.readEvents(id);
    if (!log.length && workflowId)
      throw notFound(`no workflow ${workflowId}; list them with \`baton list\``, { workflow_id: workflowId });
    if (!log.length) continue;
    const { state, writes } = foldEvents(log);
    await store.replaceProjection(id, state, writes);
    events += log.length;
  }
  return { workflows: ids.length, events };
}

/**
 * The Go Team cleanup: finished workflows (completed, failed, cancelled) untouched for `olderThanMs`. What Baton
 * created for their sessions (Docker containers) is removed first, through `release`; a workflow whose containers
 * cannot be removed (the engine is down) is kept, with the reason, so nothing is left without its record.
 */
export async function cleanup(
  store: Store,
  olderThanMs: number,
  now: Date,
  dryRun: boolean,
  release?: (row: ExecutorRow) => Promise<void>,
) {
  const before = new Date(now.getTime() - olderThanMs).toISOString();
  const old = (await store.listWorkflows({ updatedBefore: before })).filter((w: WorkflowState) =>
    isTerminal(w.status),
  );
  const removed: WorkflowState[] = [];
  const kept: { id: string; title: string; status: string; reason: string }[] = [];
  for (const w of old) {
    if (!dryRun) {
      const failure = await releaseAll((await store.executors?.list({ workflowId: w.id })) ?? [], release);
      if (failure) {
        kept.push({ id: w.id, title: w.title, status: w.status, reason: failure });
        continue;
      }
      await store.deleteWorkflow(w.id);
    }
    removed.push(w);
  }
  return {
    removed: removed.map((w) => ({ id: w.id, title: w.title, status: w.status, updated_at: w.updated_at })),
    kept,
    dry_run: dryRun,
    before,
  };
}

/** What cleanup removed (or would remove) and what it kept, with why. */
export type CleanupResult = Awaited<ReturnType<typeof cleanup>>;

async function releaseAll(
  rows: readonly ExecutorRow[],
  release?: (row: ExecutorRow) => Promise<void>,
): Promise<string | null> {
  if (!release) return null;
  for (const row of rows) {
    try {
      await release(row);
    } catch (e) {
      return `could not remove what Baton created for executor ${row.id}: ${(e as Error).message}`;
    }
  }
  return null;
}
