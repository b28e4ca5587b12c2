import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { invalidInput } from '../core/index.js';
import { ensurePrivateDir, narrowToPrivate, PRIVATE_FILE_MODE } from '../storage/private-files.js';

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
  const paths = [cwd ? worktreeConfig(cwd) : null, homeConfigPath(home)];
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

/** The user's own configuration file, `$BATON_HOME/config.json`: read by every Baton process of this user. */
export const homeConfigPath = (home: string) => join(home, 'config.json');

/**
 * Sets one key of `$BATON_HOME/config.json` (created 0600 in a 0700 home: a database URL may hold a password),
 * keeping its other keys. Returns the file.
 */
export function saveHomeSetting(home: string, key: string, value: string): string {
  const file = homeConfigPath(home);
  const values = existsSync(file) ? readConfigFile(file).values : {};
  ensurePrivateDir(home);
  writeFileSync(file, `${JSON.stringify({ ...values, [key]: value }, null, 2)}\n`, {
    mode: PRIVATE_FILE_MODE,
  });
  narrowToPrivate(file);
  return file;
}
