import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isTerminal, type WorkflowState } from '../core/index.js';
import { byIsoTime } from '../core/iso-order.js';
import { writeJsonAtomic } from './atomic-file.js';
import { withLock } from '../storage/lock-file.js';
import { readJsonFile } from './read-json.js';
import { registryEntry, type RegistryEntry } from './run-documents.js';
import { registryPath } from './run-paths.js';

export interface UnfinishedRun {
  id: string;
  topic: string;
  status: string;
}

/**
 * What `baton doctor` and a session start say of the unfinished workflows a worktree's run folders hold that the store
 * in use (`store`: how it is named there) lacks: which, and the command that brings them back.
 */
export const runsStoreLacks = (
  lost: readonly UnfinishedRun[],
  runsDir: string,
  worktree: string,
  store: string,
) =>
  `this worktree's run folders (${runsDir}) hold ${lost.length === 1 ? '1 unfinished workflow' : `${lost.length} unfinished workflows`} that ${store} does not: ${lost.map((r) => `${r.id} ("${r.topic}", ${r.status})`).join(', ')}; was Baton's home emptied or replaced? \`baton rebuild --from-disk ${worktree}\` brings them back into it`;

/**
 * Rewrites one workflow's line of the registry (`sessions.json`), keeping the other lines as they are. Several
 * processes update it (a CLI beside a server, agents' hooks), so the read-modify-write cycle runs under a lock
 * file beside it (`sessions.json.lock`, see `withLock`), and the file itself is replaced atomically.
 */
export function updateRegistry(path: string, state: WorkflowState, now: string): void {
  mkdirSync(dirname(path), { recursive: true });
  withLock(`${path}.lock`, () => {
    const current = readJsonFile(path);
    const sessions = current.ok ? (current.value as { sessions?: unknown }).sessions : undefined;
    const others = (Array.isArray(sessions) ? (sessions as RegistryEntry[]) : []).filter(
      (s) => s && typeof s === 'object' && s.id !== state.id,
    );
    const all = [...others, registryEntry(state, now)].sort((a, b) =>
      byIsoTime(String(a.created_at), String(b.created_at)),
    );
    const active = [...all].sort((a, b) => byIsoTime(String(b.updated_at), String(a.updated_at)))[0];
    writeJsonAtomic(path, { version: '1.0.0', sessions: all, last_active_session: active?.id ?? null });
  });
}

/**
 * The unfinished workflows a runs folder's registry lists whose run folder is there: what `baton rebuild --from-disk`
 * would bring back into a store that lost them (Baton's home emptied or replaced). None when it has no registry.
 */
export function unfinishedRuns(runsDir: string): UnfinishedRun[] {
  const read = readJsonFile(registryPath(runsDir));
  const sessions = read.ok ? (read.value as { sessions?: unknown }).sessions : undefined;
  return (Array.isArray(sessions) ? (sessions as Partial<RegistryEntry>[]) : []).flatMap((s) =>
    typeof s?.id === 'string' &&
    typeof s.status === 'string' &&
    !isTerminal(s.status as WorkflowState['status']) &&
    existsSync(join(runsDir, s.id))
      ? [{ id: s.id, topic: String(s.topic ?? ''), status: s.status }]
      : [],
  );
}
