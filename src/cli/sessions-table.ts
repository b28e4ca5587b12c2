import { formatAgo } from '../core/index.js';
import type { SessionRow } from '../service/index.js';
import { basename } from 'node:path';
import { gitFolders } from '../git/git-files.js';
import { table } from './output.js';
import { resumableWords, statusWord } from './resumable-words.js';

/** The width `baton sessions` keeps its table to, cutting the topic, branch and worktree (a terminal's usual). */
export const SESSIONS_WIDTH = 100;

/**
 * The worktrees among `paths` that are linked worktrees of their repository (`git worktree add`), not its main
 * checkout, read on this machine's file system; a path not here (a teammate's, a server's) is not one.
 */
export async function linkedWorktrees(paths: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(paths)];
  const folders = await Promise.all(unique.map((p) => gitFolders(p).catch(() => null)));
  return new Set(unique.filter((_, i) => folders[i] && folders[i].own !== folders[i].common));
}

/**
 * The text table of `baton sessions`: a row a workflow, with the branch its work is on, and its worktree when rows of
 * several worktrees are listed or one is a linked worktree (`linked`), so a user moving between worktrees tells the
 * rows apart (by its folder's name; its path when two listed share the name). RESUMABLE, free text of up to a
 * sentence, comes last; the topic, branch and worktree are cut (`…`) toward SESSIONS_WIDTH, never under 20, 20 and 12
 * columns (the worktree at its start: its end names it); `--json` and `baton list` have them whole.
 */
export function sessionsTable(
  rows: readonly SessionRow[],
  o: { byOwner: boolean; alone: ReadonlySet<string>; linked: ReadonlySet<string> },
  now = Date.now(),
): string {
  const worktrees = new Set(rows.map((r) => r.worktree));
  const where = worktrees.size > 1 || rows.some((r) => o.linked.has(r.worktree));
  // a worktree by its folder's name, whole where two listed have the same name
  const names = [...worktrees].map((w) => basename(w));
  const folder = (w: string) => (names.filter((n) => n === basename(w)).length > 1 ? w : basename(w) || w);
  const headers = [
    '#',
    'WORKFLOW',
    'TOPIC',
    'BRANCH',
    ...(where ? ['WORKTREE'] : []),
    'STEP',
    'STATUS',
    'SESSIONS',
    'UPDATED',
    ...(o.byOwner ? ['OWNER'] : []),
    'RESUMABLE',
  ];
  return table(
    headers,
    rows.map((r, i) => [
      i + 1,
      r.id,
      r.topic,
      r.branch ?? '-',
      ...(where ? [folder(r.worktree)] : []),
      r.step,
      statusWord(r, o.alone.has(r.id)),
      r.sessions,
      formatAgo(now - Date.parse(r.updated_at)),
      ...(o.byOwner ? [r.owner ?? '-'] : []),
      o.alone.has(r.id) ? 'no: no hooks follow its worktree' : resumableWords(r),
    ]),
    {
      width: SESSIONS_WIDTH,
      shrink: {
        2: { min: 20 },
        3: { min: 20 },
        ...(where ? { 4: { min: 12, from: 'start' as const } } : {}),
      },
    },
  );
}
