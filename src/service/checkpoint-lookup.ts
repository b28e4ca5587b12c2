import {
  checkpointAnswersTo,
  CheckpointRef,
  listTotals,
  notFound,
  type WorkflowState,
} from '../core/index.js';
import type { Store } from '../storage/store.js';

/** Every checkpoint of a workflow, oldest first, from the records (the state keeps the recent ones). */
export async function listCheckpoints(store: Store, s: Pick<WorkflowState, 'id'>): Promise<CheckpointRef[]> {
  const rows = await store.listRecords(s.id, 'checkpoint');
  return rows.map((r) => CheckpointRef.parse(r.data));
}

/**
 * The checkpoint `name` names (the latest without a name): among the state's recent checkpoints first, then in
 * the records, where every checkpoint ever taken is.
 */
export async function findCheckpoint(
  store: Store,
  s: WorkflowState,
  name: string | null,
): Promise<CheckpointRef> {
  const held = name ? s.checkpoints.find((c) => checkpointAnswersTo(c.name, name)) : s.checkpoints.at(-1);
  if (held) return held;
  if (name && listTotals(s).checkpoints > s.checkpoints.length) {
    const row = await store.getRecord(s.id, 'checkpoint', name);
    if (row) return CheckpointRef.parse(row.data);
    const older = (await listCheckpoints(store, s)).reverse().find((c) => checkpointAnswersTo(c.name, name));
    if (older) return older;
  }
  const older = listTotals(s).checkpoints - s.checkpoints.length;
  throw notFound(
    name
      ? `no checkpoint ${name} in workflow ${s.id} (have: ${s.checkpoints.map((c) => c.name).join(', ') || 'none'}${older > 0 ? ` and ${older} older: baton checkpoints lists them` : ''})`
      : `workflow ${s.id} has no checkpoint yet`,
    { checkpoint: name },
  );
}
