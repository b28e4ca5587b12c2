import { createRequire } from 'node:module';

type Smol = typeof import('smol-toml');
let smol: Smol | undefined;
/** smol-toml, loaded the first time a TOML text is read: a hook that reads none (most of them) does not load it. */
const toml = (): Smol => (smol ??= createRequire(import.meta.url)('smol-toml') as Smol);

export type TomlTable = Record<string, unknown>;

/** A TOML document's root table, or why it does not parse: where, and the parser's reason. */
export type TomlRead = { doc: TomlTable; error: null } | { doc: null; error: string };

/**
 * Reads a TOML text as Codex does (a real parser: a table header with a quoted key, an inline table and dotted keys
 * are all the same table). A text that does not parse gives the parser's reason with its place ("line 4, column 2:
 * trying to redefine an already defined table or value").
 */
export function parseToml(text: string): TomlRead {
  try {
    return { doc: toml().parse(text) as TomlTable, error: null };
  } catch (e) {
    const err = e as Error & { line?: number; column?: number };
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return { doc: null, error: err.line ? `line ${err.line}, column ${err.column}: ${reason}` : reason };
  }
}

/** The table at `keys` in a parsed document (`['mcp_servers', 'baton']`), or undefined. */
export function tomlAt(doc: TomlTable, keys: readonly string[]): unknown {
  let at: unknown = doc;
  for (const k of keys) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as TomlTable)[k];
  }
  return at;
}
