import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

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
 * (Codex runs a project's `.codex/hooks.json` only in a trusted one). Null when the file names no trust for it.
 */
export function codexTrust(root: string, codexDir: string): 'trusted' | 'untrusted' | null {
  const text = readCodexConfig(codexDir);
  let inProject = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const table = /^\[\s*projects\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\]\s*(?:#.*)?$/.exec(line);
    if (table) {
      const folder = table[1] !== undefined ? unquote(table[1]) : table[2];
      inProject = folder?.replace(/\/+$/, '') === root.replace(/\/+$/, '');
      continue;
    }
    if (line.startsWith('[')) inProject = false;
    const level = inProject ? /^trust_level\s*=\s*["']([a-z_]+)["']/.exec(line)?.[1] : undefined;
    if (level === 'trusted' || level === 'untrusted') return level;
  }
  return null;
}

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
