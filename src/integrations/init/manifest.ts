import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InitAgent, InitScope } from './agent-files.js';
import type { KeyPath } from './created-keys.js';

/** An object or list init made in a JSON file to hold its entries: the file, and the key's path in it. */
export interface MadeKey {
  file: string;
  key: KeyPath;
}

/**
 * What `baton init` created, kept in Baton's home (`init/<key>-<scope>.json`, one a set-up) so `--undo` deletes only
 * those files, and only when nothing else is in them.
 */
export interface Manifest {
  version: 1;
  root: string;
  scope: InitScope;
  agents: InitAgent[];
  /** The files and folders init created, and `<~/.claude.json>#projects/<root>` when it created the project's entry. */
  created: string[];
  /** The files init listed in `.git/info/exclude`. */
  excluded: string[];
  /**
   * The objects and lists init made to hold its entries, in files that lacked them (`mcpServers` and `projects` in
   * ~/.claude.json, `hooks` and an event's list in a settings file; Codex's `[mcp_servers.baton]` makes none): undo
   * takes out those left empty, and only those (an empty `mcpServers` Claude Code wrote stays). A manifest of an
   * earlier Baton has none, and keeps none when init runs again (what it found there may be that Baton's): its undo
   * is that Baton's, `keyRecord`.
   */
  keys?: MadeKey[];
  /**
   * The text of each hooks file git tracks that init changed, as it first found it (a personal file is not copied: it
   * may hold secrets): undo writes it back byte
   * for byte when taking Baton's hooks out leaves what it held (a committed `.codex/hooks.json` shows no diff after),
   * and writes the JSON as it is otherwise (the user changed it since).
   */
  originals?: Record<string, string>;
}

/**
 * The note of a manifest of an earlier Baton (without `keys`) that init created the project's entry in ~/.claude.json
 * (not a file: never deleted as one).
 */
export const projectKey = (claudeJson: string, root: string) => `${claudeJson}#projects/${root}`;

export function manifestPath(home: string, root: string, scope: InitScope): string {
  const key = scope === 'user' ? 'user' : createHash('sha256').update(root).digest('hex').slice(0, 16);
  return join(home, 'init', `${key}-${scope}.json`);
}

export function readManifest(path: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    return m.version === 1 ? m : null;
  } catch {
    return null;
  }
}

const keyId = (k: MadeKey) => JSON.stringify([k.file, ...k.key]);

/** The keys of both, each once: `previous`'s first. */
export const joinKeys = (previous: readonly MadeKey[], made: readonly MadeKey[]): MadeKey[] => [
  ...new Map([...previous, ...made].map((k) => [keyId(k), k])).values(),
];

/** What a set-up's manifest says init made in the JSON files it edits. */
export interface KeyRecord {
  /** The manifest records it (`keys`); an earlier Baton's, or none, does not. */
  known: boolean;
  made: (file: string, key: KeyPath) => boolean;
}

/**
 * The record of the objects init made. Without one (an earlier Baton's manifest, or none), as that Baton's undo took
 * them: every `hooks` and event list it left empty, and the project's entry of ~/.claude.json with its `mcpServers`
 * when it had created the entry; any other `mcpServers` or `projects` stays.
 */
export function keyRecord(m: Manifest | null): KeyRecord {
  if (m?.keys) {
    const made = new Set(m.keys.map(keyId));
    return { known: true, made: (file, key) => made.has(keyId({ file, key })) };
  }
  const created = new Set(m?.created ?? []);
  return {
    known: false,
    made: (file, [first, project]) =>
      first === 'hooks' ||
      (first === 'projects' && project !== undefined && created.has(projectKey(file, project))),
  };
}
