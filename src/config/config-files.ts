import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { invalidInput } from '../core/index.js';

/** One configuration file and the values it holds. */
export interface ConfigFile {
  file: string;
  values: Record<string, unknown>;
}

/** The worktree's own configuration file's name. */
export const WORKTREE_CONFIG = 'baton.config.json';

/**
 * The configuration files, in the order they are read (the one file-lookup rule): the worktree's `baton.config.json`
 * (found from `cwd` upwards, up to the git worktree's root), then `$BATON_HOME/config.json`. A key is taken from the
 * first file that has it. Missing files are skipped; an unreadable one is an error naming it.
 */
export function configFiles(home: string, cwd: string | null): ConfigFile[] {
  const paths = [cwd ? worktreeConfig(cwd) : null, join(home, 'config.json')];
  return paths.filter((p): p is string => p !== null && existsSync(p)).map(readConfigFile);
}

function worktreeConfig(cwd: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, WORKTREE_CONFIG))) return join(dir, WORKTREE_CONFIG);
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return null;
  }
}

export function readConfigFile(file: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw invalidInput(`cannot read the config file ${file}: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalidInput(`config file ${file}: must hold a JSON object of settings`);
  return { file, values: raw as Record<string, unknown> };
}
