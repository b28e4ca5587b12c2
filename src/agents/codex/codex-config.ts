import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseToml, tomlAt, type TomlTable } from './codex-toml.js';

/** Codex's folder: `CODEX_HOME`, else `~/.codex`. */
export const codexHome = (env: NodeJS.ProcessEnv): string =>
  env.CODEX_HOME || join(env.HOME || homedir(), '.codex');

/** The text of `config.toml` in Codex's folder; empty when there is none (Codex's defaults then hold). */
function readCodexText(codexDir: string): string {
  try {
    return readFileSync(join(codexDir, 'config.toml'), 'utf8');
  } catch {
    return '';
  }
}

/**
 * `config.toml` in Codex's folder, read with a TOML parser (a table written with a header, dotted keys or inline is
 * the same table); empty when there is none, or when it does not parse (Codex does not start with it: `baton doctor`
 * and `baton init` say so, see `codexConfigError`).
 */
const readCodexConfig = (codexDir: string): TomlTable => parseToml(readCodexText(codexDir)).doc ?? {};

/** Why `$CODEX_HOME/config.toml` does not parse (where, and the parser's reason); null when it does, or is not there. */
export const codexConfigError = (codexDir: string): string | null => parseToml(readCodexText(codexDir)).error;

const tables = (v: unknown): [string, TomlTable][] =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.entries(v as TomlTable).filter(
        (e): e is [string, TomlTable] => typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]),
      )
    : [];

/**
 * How Codex trusts a project folder: `trust_level` under `[projects."<folder>"]` in `$CODEX_HOME/config.toml`
 * (Codex loads a project's `.codex/hooks.json` only in a trusted one). Codex looks the folder up, then, in a linked
 * git worktree, the main checkout (the `.git` file's `gitdir: <main>/.git/worktrees/<name>`), each as written and
 * with its links resolved. Null when the file names no trust for either: Codex then loads the hooks disabled.
 */
export function codexTrust(root: string, codexDir: string): CodexTrust | null {
  const levels = trustLevels(readCodexConfig(codexDir));
  const main = mainCheckout(root);
  for (const folder of [root, ...(main ? [main] : [])])
    for (const key of new Set([folder, realOr(folder)].map((f) => f.replace(/\/+$/, '')))) {
      const level = levels.get(key);
      if (level) return { level, folder: key };
    }
  return null;
}

/** A project's trust in Codex's config.toml, and the `[projects."<folder>"]` table that gives it. */
export interface CodexTrust {
  level: 'trusted' | 'untrusted';
  folder: string;
}

/** Every `[projects."<folder>"]` table's trust_level, by folder (no trailing slash). */
function trustLevels(doc: TomlTable): Map<string, 'trusted' | 'untrusted'> {
  const levels = new Map<string, 'trusted' | 'untrusted'>();
  for (const [folder, table] of tables(doc.projects)) {
    const level = table.trust_level;
    const key = folder.replace(/\/+$/, '');
    if ((level === 'trusted' || level === 'untrusted') && !levels.has(key)) levels.set(key, level);
  }
  return levels;
}

/** The main checkout of a linked worktree (its `.git` is a file naming `<main>/.git/worktrees/<name>`), else null. */
function mainCheckout(root: string): string | null {
  try {
    const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(join(root, '.git'), 'utf8'))?.[1];
    if (!gitdir) return null;
    const worktrees = dirname(resolve(root, gitdir));
    return basename(worktrees) === 'worktrees' ? dirname(dirname(worktrees)) : null;
  } catch {
    return null; // .git is a folder (the main checkout itself), or there is none
  }
}

const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The `writable_roots` of `[sandbox_workspace_write]` in `$CODEX_HOME/config.toml` (a dotted key too), if any. */
export function userWritableRoots(codexDir: string): string[] {
  const roots = tomlAt(readCodexConfig(codexDir), ['sandbox_workspace_write', 'writable_roots']);
  return Array.isArray(roots) ? roots.filter((r): r is string => typeof r === 'string') : [];
}

/** What `$CODEX_HOME/config.toml` records of one hook a person reviewed in Codex (`/hooks`, or at its start). */
export interface CodexHookState {
  /** A `trusted_hash`: trusted as the hook was then (Codex compares it with the hook's hash now; Baton cannot). */
  trusted: boolean;
  /** `enabled = false`: turned off in `/hooks`. */
  disabled: boolean;
}

/** A hook's state key, read back: its file, its event's label, its group's index and its own. */
const hookKey = /^(.*):([a-z_]+):(\d+):(\d+)$/;

/**
 * The key Codex records a hook's state under: `<hooks file>:<event in snake case>:<group>:<handler>` (SessionStart
 * is `session_start`), the indexes of its matcher group in the event's list and of the hook in the group.
 */
export const codexHookKey = (file: string, event: string, group: number, handler: number) =>
  `${file}:${event.replace(/(?<=.)([A-Z])/g, '_$1').toLowerCase()}:${group}:${handler}`;

/**
 * Codex's record of the hooks a person reviewed: `[hooks.state."<hooks file>:<event>:<group>:<handler>"]` tables in
 * `$CODEX_HOME/config.toml` (Codex reads that record from the user's own config only), each with `trusted_hash` and
 * `enabled` (also written as dotted keys, or inline tables under `[hooks.state]`). Returns the state of the hook at
 * that place, its file compared with links resolved (Codex writes the path as it found it); null when none is kept.
 */
export function codexHookStates(codexDir: string) {
  const states = new Map<string, CodexHookState>();
  for (const [key, table] of tables(tomlAt(readCodexConfig(codexDir), ['hooks', 'state']))) {
    const m = hookKey.exec(key);
    if (!m) continue;
    const at = `${realOr(m[1]!)}:${m[2]}:${m[3]}:${m[4]}`;
    const s = states.get(at) ?? { trusted: false, disabled: false };
    if (typeof table.trusted_hash === 'string' && table.trusted_hash) s.trusted = true;
    if (table.enabled === false) s.disabled = true;
    states.set(at, s);
  }
  return (file: string, event: string, group: number, handler: number): CodexHookState | null =>
    states.get(codexHookKey(realOr(file), event, group, handler)) ?? null;
}

/**
 * Where `$CODEX_HOME/config.toml` turns every hook off (`[features]` `hooks = false`, or its older name
 * `codex_hooks`), as written there; null when it does not.
 */
export function codexHooksOff(codexDir: string): string | null {
  const text = readCodexText(codexDir);
  const doc = parseToml(text).doc ?? {};
  for (const name of ['hooks', 'codex_hooks'])
    if (tomlAt(doc, ['features', name]) === false)
      // said as it is written: a dotted key before any table, else under [features]
      return new RegExp(String.raw`^\s*features\s*\.\s*${name}\s*=`, 'm').test(text)
        ? `features.${name} = false`
        : `[features] ${name} = false`;
  return null;
}
