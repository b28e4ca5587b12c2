import {
  conflictWords,
  counted,
  progressLabel,
  shortHash,
  taskCounts,
  unresolvedOfWork,
  type SessionSnapshot,
  type SnapshotSummary,
} from '../core/index.js';
import { clip } from '../core/clip.js';
import { detailCategories } from '../service/index.js';
import { table } from './output.js';
import { usageLine } from './usage-line.js';

/** The room a pause reason gets in the table: a crash's or a limit's reason runs to a few hundred characters. */
const REASON_ROOM = 60;

/**
 * A workflow's snapshots, one row each (`baton status`, `baton snapshots`), each a checkpoint was made of named by it
 * (the name `baton recover --checkpoint` takes). A long reason is cut, so no row wraps, and the line under the table
 * says where it is whole.
 */
export function snapshotsTable(list: SnapshotSummary[]): string {
  if (!list.length) return 'no snapshots yet';
  const cut = list.find((s) => (s.pause_reason ?? '').length > REASON_ROOM);
  const rows = table(
    ['SNAPSHOT', 'CHECKPOINT', 'SESSION', 'TRIGGER', 'TASKS', 'CREATED', 'REASON'],
    list.map((s) => [
      s.id,
      s.checkpoint ?? '-',
      s.session_number,
      s.trigger,
      `${s.tasks_completed}/${s.tasks_completed + s.tasks_remaining}`,
      s.created_at,
      clip(s.pause_reason ?? '', REASON_ROOM),
    ]),
  );
  return cut ? `${rows}\n(reasons cut to fit: \`baton snapshot ${cut.id}\` shows one whole)` : rows;
}

/**
 * One snapshot as `baton snapshot <id>` shows it to a person: when and why it was taken (the reason whole), the tasks,
 * git, usage, what it holds, and the commands that show the rest (`--json` is the whole record).
 */
export function snapshotText(s: SessionSnapshot): string {
  const at = [
    s.current_task_id && `current ${s.current_task_id}`,
    s.next_task_id && `next ${s.next_task_id}`,
  ];
  const g = s.git_state;
  const git = g
    ? `${g.branch} at ${g.commit_at_snapshot ? shortHash(g.commit_at_snapshot) : '(no commits)'}${g.head_subject ? ` "${clip(g.head_subject, 60)}"` : ''}, ${g.has_uncommitted_changes ? `uncommitted changes${g.uncommitted_summary ? ` (${g.uncommitted_summary})` : ''}` : 'clean'}`
    : (s.git_note ?? 'not recorded');
  // the API failing under the agent is no error of the work (the snapshot's reason says the turn it cut off)
  const open =
    unresolvedOfWork(s.errors, { summaries: s.summaries, asked: s.requests.at(-1) }).length +
    (s.open_errors_more ?? 0);
  const t = s.test_state;
  return [
    `snapshot ${s.id} of ${s.workflow_id}: session ${s.session_number}, trigger ${s.trigger}, ${s.created_at}`,
    ...(s.pause_reason ? [`reason: ${s.pause_reason}`] : []),
    `tasks: ${progressLabel(taskCounts(s.tasks))}${at.some(Boolean) ? ` (${at.filter(Boolean).join(', ')})` : ''}`,
    // files still holding conflict markers: said before "uncommitted changes" reads as work to commit
    ...(g?.conflict ? [`git: ${conflictWords(g.conflict)}`] : []),
    `git: ${git}`,
    usageLine(s.usage) ?? 'usage: none reported',
    `holds: ${counted(open, 'unresolved error')}, ${counted(s.decisions.length, 'recent decision')}, ${counted((s.side_effects ?? []).length, 'side effect')}, ${counted(s.requests.length, 'request')}`,
    `last test: ${t?.last_test_command ? `${clip(t.last_test_command, 80)} -> ${t.last_test_output_summary ?? t.phase}` : 'none recorded'}`,
    `more: \`baton details ${s.id} <category>\` (${detailCategories.join(', ')}), the whole record: \`baton snapshot ${s.id} --json\``,
  ].join('\n');
}
