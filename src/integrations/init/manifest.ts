import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InitAgent, InitScope } from './agent-files.js';

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
}

/** The manifest's note that init created the project's entry in ~/.claude.json (not a file: never deleted as one). */
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
