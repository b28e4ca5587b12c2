import { ImportMark, SessionInfo, type WorkflowState } from '../core/index.js';
import type { Store } from '../storage/store.js';

/**
 * The full lists the folded state keeps only the recent items of (docs/bounded-state.md), read from the records;
 * checkpoints are in checkpoint-lookup.ts.
 */

/**
 * An import mark as a status says it: which transcript, how far it was read, where its agent worked, when; never
 * its parser's carry-over, the importer's own bookkeeping (`importsOf` gives it to the importer).
 */
function importSummary({ parser_state: _, ...mark }: ImportMark): Omit<ImportMark, 'parser_state'> {
  return mark;
}

/** The recent import marks as a status says them (`importSummary`), by transcript session id. */
export function importSummaries(imports: WorkflowState['imports']) {
  return Object.fromEntries(Object.entries(imports).map(([id, m]) => [id, importSummary(m)]));
}

/** One session the state no longer holds (older than its recent ones), from its `session` record. */
export async function olderSession(store: Store, s: WorkflowState, n: number): Promise<SessionInfo | null> {
  const row = await store.getRecord(s.id, 'session', String(n));
  return row ? SessionInfo.parse(row.data) : null;
}

/** The sessions the state no longer holds, oldest first, from their `session` records. */
export async function olderSessions(store: Store, s: WorkflowState): Promise<SessionInfo[]> {
  const held = new Set(s.sessions.map((x) => x.number));
  const rows = await store.listRecords(s.id, 'session');
  return rows
    .map((r) => SessionInfo.parse(r.data))
    .filter((x) => !held.has(x.number))
    .sort((a, b) => a.number - b.number);
}

/**
 * The transcripts imported into the workflow and how far each was read, oldest first, each with its parser's
 * carry-over (the importer's, to read on); with `path`, only that file's. The state keeps the recent ones; every
 * transcript's mark is an `import` record, so an older one is found there (a re-import then reads on from its offset
 * instead of from the start). With `recent`, only the ones the state keeps (those a status lists): no record is read.
 */
export async function importsOf(
  store: Store,
  s: WorkflowState,
  path?: string,
  opts: { recent?: boolean } = {},
) {
  const view = (id: string, m: ImportMark) => ({ transcript_session_id: id, ...m });
  const recent = Object.entries(s.imports)
    .map(([id, m]) => view(id, m))
    .filter((m) => path === undefined || m.path === path);
  if (opts.recent || (path !== undefined && recent.length)) return { workflow_id: s.id, imports: recent };
  const held = new Set(Object.keys(s.imports));
  const rows = await store.listRecords(s.id, 'import');
  const older = rows
    .filter((r) => !held.has(r.id))
    .map((r) => view(r.id, ImportMark.parse(r.data)))
    .filter((m) => path === undefined || m.path === path);
  return { workflow_id: s.id, imports: [...older, ...recent] };
}
