import { foldEvents, isTerminal, notFound, type WorkflowState } from '../core/index.js';
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

/** The Go Team cleanup: finished workflows (completed, failed, cancelled) untouched for `olderThanMs`. */
export async function cleanup(store: Store, olderThanMs: number, now: Date, dryRun: boolean) {
  const before = new Date(now.getTime() - olderThanMs).toISOString();
  const old = (await store.listWorkflows({ updatedBefore: before })).filter((w: WorkflowState) =>
    isTerminal(w.status),
  );
  if (!dryRun) for (const w of old) await store.deleteWorkflow(w.id);
  return {
    removed: old.map((w) => ({ id: w.id, title: w.title, status: w.status, updated_at: w.updated_at })),
    dry_run: dryRun,
    before,
  };
}
