import type { SnapshotSummary } from '../core/index.js';
import { clip } from '../core/clip.js';
import { table } from './output.js';

/** The room a pause reason gets in the table: a crash's or a limit's reason runs to a few hundred characters. */
const REASON_ROOM = 60;

/**
 * A workflow's snapshots, one row each (`baton status`, `baton snapshots`). A long reason is cut, so no row wraps,
 * and the line under the table says where it is whole.
 */
export function snapshotsTable(list: SnapshotSummary[]): string {
  if (!list.length) return 'no snapshots yet';
  const cut = list.find((s) => (s.pause_reason ?? '').length > REASON_ROOM);
  const rows = table(
    ['SNAPSHOT', 'SESSION', 'TRIGGER', 'TASKS', 'CREATED', 'REASON'],
    list.map((s) => [
      s.id,
      s.session_number,
      s.trigger,
      `${s.tasks_completed}/${s.tasks_completed + s.tasks_remaining}`,
      s.created_at,
      clip(s.pause_reason ?? '', REASON_ROOM),
    ]),
  );
  return cut ? `${rows}\n(reasons cut to fit: \`baton snapshot ${cut.id}\` shows one whole)` : rows;
}
