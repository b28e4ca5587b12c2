import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { WorkflowState } from '../core/index.js';
import { byIsoTime } from '../core/iso-order.js';
import { writeJsonAtomic } from './atomic-file.js';
import { withLock } from '../storage/lock-file.js';
import { readJsonFile } from './read-json.js';
import { registryEntry, type RegistryEntry } from './run-documents.js';

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
