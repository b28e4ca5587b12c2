import { ErrorRecord, findError, type WorkflowState } from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { RecordInput } from './record-input.js';

/**
 * The records of the errors `ids` names that the state no longer holds (open errors older than the newest it
 * keeps): a resolution of one of them is decided on its record, which the `error.resolved` event then carries.
 */
export async function storedErrors(
  store: Store,
  s: WorkflowState,
  ids: readonly string[],
): Promise<Map<string, ErrorRecord>> {
  const out = new Map<string, ErrorRecord>();
  for (const id of new Set(ids)) {
    if (findError(s, id)) continue;
    const row = await store.getRecord(s.id, 'error', id);
    if (row) out.set(id, ErrorRecord.parse(row.data));
  }
  return out;
}

/** The error ids the resolutions among `inputs` name. */
export const resolvedIds = (inputs: readonly RecordInput[]) =>
  inputs.flatMap((i) => (i.kind === 'resolution' ? [i.error_id] : []));
