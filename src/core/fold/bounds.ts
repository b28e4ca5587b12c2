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
});

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
