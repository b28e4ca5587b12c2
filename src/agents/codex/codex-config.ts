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
