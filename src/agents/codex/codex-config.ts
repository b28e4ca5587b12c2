import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/** Codex's folder: `CODEX_HOME`, else `~/.codex`. */
export const codexHome = (env: NodeJS.ProcessEnv): string =>
  env.CODEX_HOME || join(env.HOME || homedir(), '.codex');

/** The text of `config.toml` in Codex's folder; empty when there is none (Codex's defaults then hold). */
function readCodexConfig(codexDir: string): string {
  try {
    return readFileSync(join(codexDir, 'config.toml'), 'utf8');
  } catch {
    return '';
  }
}

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
function trustLevels(text: string): Map<string, 'trusted' | 'untrusted'> {
  const levels = new Map<string, 'trusted' | 'untrusted'>();
  let folder: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const table = /^\[\s*projects\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\]\s*(?:#.*)?$/.exec(line);
    if (table) {
      folder = (table[1] !== undefined ? unquote(table[1]) : table[2])!.replace(/\/+$/, '');
      continue;
    }
    if (line.startsWith('[')) folder = null;
    const level = folder !== null ? /^trust_level\s*=\s*["']([a-z_]+)["']/.exec(line)?.[1] : undefined;
    if ((level === 'trusted' || level === 'untrusted') && folder !== null && !levels.has(folder))
      levels.set(folder, level);
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

/** A TOML basic string's text; one with an escape JSON does not share (\U0001F600) is kept as written. */
function unquote(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

/** The `writable_roots` of `[sandbox_workspace_write]` in `$CODEX_HOME/config.toml` (a dotted key too), if any. */
export function userWritableRoots(codexDir: string): string[] {
  const text = readCodexConfig(codexDir);
  let table = '';
  let list: string | null = null;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const key = /^(?:sandbox_workspace_write\s*\.\s*)?writable_roots\s*=\s*(\[.*)$/.exec(line);
    const dotted = /^sandbox_workspace_write\s*\./.test(line);
    if (key && (table === 'sandbox_workspace_write' || (table === '' && dotted))) {
      // the array, over as many lines as it takes
      list = [key[1], ...text.split('\n').slice(i + 1)].join('\n');
      break;
    }
  }
  if (list === null) return [];
  const body = list.slice(0, list.indexOf(']') + 1);
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) =>
    m[2] !== undefined ? m[2] : m[1]!.replace(/\\(["\\])/g, '$1'),
  );
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
  const keep = (key: string, field: string, value: string) => {
    const m = hookKey.exec(key);
    if (!m) return;
    const at = `${realOr(m[1]!)}:${m[2]}:${m[3]}:${m[4]}`;
    const s = states.get(at) ?? { trusted: false, disabled: false };
    if (field === 'trusted_hash' && /^["'][^"']+["']$/.test(value)) s.trusted = true;
    if (field === 'enabled' && value === 'false') s.disabled = true;
    states.set(at, s);
  };
  const quoted = String.raw`(?:"((?:[^"\\]|\\.)*)"|'([^']*)')`;
  const keyOf = (m: RegExpExecArray, i: number) => (m[i] !== undefined ? unquote(m[i]) : m[i + 1]!);
  const field = String.raw`(trusted_hash|enabled)\s*=\s*("[^"]*"|'[^']*'|true|false)`;
  let table = '';
  let key: string | null = null;
  for (const raw of readCodexConfig(codexDir).split('\n')) {
    const line = raw.trim();
    const header = new RegExp(String.raw`^\[\s*hooks\s*\.\s*state\s*\.\s*${quoted}\s*\]`).exec(line);
    if (header) {
      // the fields that follow are this hook's
      [table, key] = ['hooks.state.<key>', keyOf(header, 1)];
      continue;
    }
    const other = /^\[\s*([^\]]*?)\s*\]/.exec(line);
    if (other) {
      [table, key] = [other[1]!.replace(/\s+/g, ''), null];
      continue;
    }
    const own = new RegExp(String.raw`^${field}`).exec(line);
    if (own && key !== null) keep(key, own[1]!, own[2]!);
    // `hooks.state."<key>".trusted_hash = ...` at the top, `state."<key>".enabled = ...` under [hooks]
    const prefix = { '': String.raw`hooks\s*\.\s*state`, hooks: 'state' }[table];
    const dotted = prefix && new RegExp(String.raw`^${prefix}\s*\.\s*${quoted}\s*\.\s*${field}`).exec(line);
    if (dotted) keep(keyOf(dotted, 1), dotted[3]!, dotted[4]!);
    // `"<key>" = { trusted_hash = "...", enabled = false }` under [hooks.state]
    const inline = table === 'hooks.state' && new RegExp(String.raw`^${quoted}\s*=\s*\{(.*)\}`).exec(line);
    if (inline)
      for (const f of inline[3]!.matchAll(new RegExp(field, 'g'))) keep(keyOf(inline, 1), f[1]!, f[2]!);
  }
  return (file: string, event: string, group: number, handler: number): CodexHookState | null =>
    states.get(codexHookKey(realOr(file), event, group, handler)) ?? null;
}

/**
 * Where `$CODEX_HOME/config.toml` turns every hook off (`[features]` `hooks = false`, or its older name
 * `codex_hooks`), as written there; null when it does not.
 */
export function codexHooksOff(codexDir: string): string | null {
  let table = '';
  for (const raw of readCodexConfig(codexDir).split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([^\]]*?)\s*\]/.exec(line);
    if (header) table = header[1]!.replace(/\s+/g, '');
    // `hooks = false` under [features], or `features.hooks = false` before any table
    const off = /^(features\s*\.\s*)?(hooks|codex_hooks)\s*=\s*false\b/.exec(line);
    if (off && table === 'features' && !off[1]) return `[features] ${off[2]} = false`;
    if (off && table === '' && off[1]) return `features.${off[2]} = false`;
  }
  return null;
}
