import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How Codex trusts a project folder: `trust_level` under `[projects."<folder>"]` in `$CODEX_HOME/config.toml`
 * (Codex runs a project's `.codex/hooks.json` only in a trusted one). Null when the file names no trust for it.
 */
export function codexTrust(root: string, codexDir: string): 'trusted' | 'untrusted' | null {
  let text: string;
  try {
    text = readFileSync(join(codexDir, 'config.toml'), 'utf8');
  } catch {
    return null;
  }
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
