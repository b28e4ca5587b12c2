import type { RecordRow } from '../records.js';
import type { BatonEvent } from '../schemas/events.js';
import type { ErrorRecord } from '../schemas/records.js';
import { OPEN_ERRORS_LIMIT, RECENT_LIMIT, type ImportMark, type WorkflowState } from '../schemas/state.js';

/**
 * The totals of the lists the folded state keeps only the recent items of. A state stored before the totals were
 * kept holds its whole lists, so their lengths are the totals until the next event of each kind sets them.
 */
export const listTotals = (s: WorkflowState) => ({
  sessions: s.session_count,
  checkpoints: s.counts.checkpoints ?? s.checkpoints.length,
  open_errors: s.counts.open_errors ?? s.open_errors.length,
  requests: s.counts.requests ?? (s.recent_requests ?? []).length,
});

/**
 * The request placed in the order the user said them (by `at`: the transcript import may read turns said before the
 * requests a hook recorded), cut to the newest `limit`.
 */
export const inRequestOrder = <T extends { at: string | null }>(
  list: readonly T[],
  item: T,
  limit = RECENT_LIMIT,
) => {
  const at = item.at;
  const i = at === null ? -1 : list.findIndex((x) => x.at !== null && x.at > at);
  return i < 0 ? recent(list, item, limit) : [...list.slice(0, i), item, ...list.slice(i)].slice(-limit);
};

/** The list with `item` appended, cut to its newest `limit` items. */
export const recent = <T>(list: readonly T[], item: T, limit = RECENT_LIMIT): T[] => {
  const out = list.length >= limit ? list.slice(list.length - limit + 1) : [...list];
  out.push(item);
  return out;
};

/** The open errors with `err` appended, cut to the newest OPEN_ERRORS_LIMIT. */
export const recentOpen = (list: readonly ErrorRecord[], err: ErrorRecord) =>
  recent(list, err, OPEN_ERRORS_LIMIT);

/** The import marks with `id` set and moved to the newest place, cut to the newest RECENT_LIMIT. */
export function recentImports(
  imports: Readonly<Record<string, ImportMark>>,
  id: string,
  mark: ImportMark,
): Record<string, ImportMark> {
  const others = Object.entries(imports).filter(([k]) => k !== id);
  return Object.fromEntries([...others.slice(-(RECENT_LIMIT - 1)), [id, mark]]);
}

/**
 * The `import` rows of the marks an event moved out of the state's recent imports. Each was written when its
 * transcript was imported, except in a state stored before import records existed: rewritten here (the same data),
 * an old transcript's offset is never lost when its mark leaves the state.
 */
export function droppedImportRows(before: WorkflowState, after: WorkflowState, e: BatonEvent): RecordRow[] {
  return Object.entries(before.imports)
    .filter(([id]) => !(id in after.imports))
    .map(([id, mark]) => ({
      workflow_id: e.workflow_id,
      kind: 'import' as const,
      id,
      seq: e.seq,
      task_id: null,
      session_number: e.session_number,
      created_at: e.at,
      data: mark,
    }));
}
