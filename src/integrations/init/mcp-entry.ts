import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseToml, tomlAt } from '../../agents/codex/codex-toml.js';
import { PACKAGE_NAME } from '../../config/package-info.js';
import { SETTINGS } from '../../config/setting-table.js';
import { invalidInput } from '../../core/index.js';
import type { AgentFiles, InitAgent } from './agent-files.js';
import type { KeyPath } from './created-keys.js';
import type { BatonCommand } from './hook-command.js';
import { isObject, readJsonObject, writeJsonObject, type JsonObject } from './json-file.js';

export type McpPlace = AgentFiles['mcp'];
export type McpChange = 'added' | 'updated' | 'unchanged' | 'theirs' | 'removed' | 'absent';

const mentionsBaton = (s: unknown) =>
  typeof s === 'string' && (s.includes('baton') || s.includes(PACKAGE_NAME));

/**
 * The agent whose MCP server this place registers: what the agent does through Baton's tools is recorded as that
 * agent's (`baton mcp --agent`), as its hooks' records are, not as the user's.
 */
const agentOf = (place: McpPlace): InitAgent => (place.kind === 'codex-toml' ? 'codex' : 'claude-code');

/** The arguments after the program that run Baton's server for `agent`. */
const mcpArgs = (cmd: BatonCommand, agent: InitAgent) => [...cmd.args, 'mcp', '--agent', agent];

/**
 * Where an entry's arguments run `mcp`: last (as an earlier `baton init` wrote it, naming no agent), or before
 * `--agent <name>`; the agent named (null: none). Null when they do not run `mcp`.
 */
function mcpCall(args: readonly unknown[]): { agent: string | null } | null {
  const n = args.length;
  if (args[n - 1] === 'mcp') return { agent: null };
  if (args[n - 3] === 'mcp' && args[n - 2] === '--agent' && typeof args[n - 1] === 'string')
    return { agent: args[n - 1] as string };
  return null;
}

/** An MCP server entry Baton wrote: it runs `… baton … mcp`. A `baton` entry of the user's own is left alone. */
export function isBatonMcp(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const args = Array.isArray(entry.args) ? entry.args : [];
  return mcpCall(args) !== null && (mentionsBaton(entry.command) || args.some(mentionsBaton));
}

const entryOf = (cmd: BatonCommand, agent: InitAgent) => ({
  type: 'stdio',
  command: cmd.program,
  args: mcpArgs(cmd, agent),
});

/** The object holding `mcpServers` in a Claude JSON file: the project's entry of ~/.claude.json, or the root. */
function serversOf(doc: JsonObject, project: string | null, create: boolean): JsonObject | null {
  let holder: JsonObject = doc;
  if (project !== null) {
    if (!isObject(doc.projects)) {
      if (!create) return null;
      doc.projects = {};
    }
    const projects = doc.projects as JsonObject;
    if (!isObject(projects[project])) {
      if (!create) return null;
      projects[project] = {};
    }
    holder = projects[project] as JsonObject;
  }
  if (!isObject(holder.mcpServers)) {
    if (!create) return null;
    holder.mcpServers = {};
  }
  return holder.mcpServers as JsonObject;
}

const TOML_BEGIN = '# >>> baton: added by `baton init` (`baton init --undo` removes it)';
const TOML_END = '# <<< baton';
const tomlString = (s: string) => JSON.stringify(s);

/**
 * Codex starts an MCP server with a few variables of its environment only (HOME, PATH, USER, LANG, TERM, TMPDIR...),
 * while its hooks get the whole of it: the variables that say where Baton's records are (and whose they are) are
 * forwarded by name (`env_vars`), or the server would read another store than the hooks write.
 */
export const CODEX_MCP_FORWARDS = [
  'BATON_HOME',
  ...[
    SETTINGS.database,
    SETTINGS.durability,
    SETTINGS.mirror,
    SETTINGS.actor,
    SETTINGS.contextBudget,
    SETTINGS.pauseTimeout,
    SETTINGS.staleAfter,
    SETTINGS.server,
    SETTINGS.token,
  ].map((s) => s.variable),
];

function tomlBlock(cmd: BatonCommand): string {
  return [
    TOML_BEGIN,
    '[mcp_servers.baton]',
    `command = ${tomlString(cmd.program)}`,
    `args = [${mcpArgs(cmd, 'codex').map(tomlString).join(', ')}]`,
    `env_vars = [${CODEX_MCP_FORWARDS.map(tomlString).join(', ')}]`,
    TOML_END,
  ].join('\n');
}

const readText = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

function writeText(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.baton-tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * The text without Baton's block: what `addMcp` wrote taken out, and only that (the block, its final newline, and the
 * blank line it put before it), so the file gets its own text back, whatever Codex or the user wrote after it since.
 */
function withoutTomlBlock(text: string): { text: string; found: boolean } {
  const start = text.indexOf(TOML_BEGIN);
  const end = text.indexOf(TOML_END, start);
  if (start < 0 || end < 0) return { text, found: false };
  const after = text.slice(end + TOML_END.length).replace(/^\n/, '');
  const before = text.slice(0, start);
  return { text: before.endsWith('\n\n') ? before.slice(0, -1) + after : before + after, found: true };
}

/** The `baton` server a parsed config.toml defines, in any form (a table, quoted or not, inline, dotted keys). */
const tomlServer = (doc: Record<string, unknown>) => tomlAt(doc, ['mcp_servers', 'baton']);

/**
 * Why Baton's MCP server cannot be written to a Codex config.toml: it does not parse (Codex cannot read it either), the
 * parser's reason and its line said, and what to do (`again`: the `baton init` to run once it is fixed). Where it is
 * Baton's own block (an earlier Baton's, appended under a `baton` server of the user's) that breaks it, says that.
 */
function unparsableToml(path: string, text: string, error: string, again: string): string {
  const stripped = withoutTomlBlock(text);
  const rest = stripped.found ? parseToml(stripped.text) : null;
  if (rest?.doc && tomlServer(rest.doc) !== undefined)
    return `${path} is not valid TOML (${error}), so Codex cannot read it: it defines the \`baton\` MCP server twice, yours and again in the block an earlier \`baton init\` appended; delete that block (its lines from "# >>> baton" to "# <<< baton"), Baton leaves yours as it is`;
  return `${path} is not valid TOML (${error}), so Codex cannot read it either, and Baton writes nothing to it: fix the file, then run \`${again}\` again`;
}

/**
 * Why `baton init` (or its undo, `undo`) leaves the MCP place alone, or null: a Codex config.toml that does not parse
 * is never written to (`again`: the command to run once it is fixed). Null when it parses, or is not there; for an
 * undo, also when Baton's block is not in it (nothing to take out).
 */
export function mcpRefusal(place: McpPlace, again: string, undo = false): string | null {
  if (place.kind !== 'codex-toml' || !existsSync(place.path)) return null;
  const text = readText(place.path);
  if (undo && !withoutTomlBlock(text).found) return null;
  const read = parseToml(text);
  return read.error === null ? null : unparsableToml(place.path, text, read.error, again);
}

/** Writes a Codex config.toml once the text parses (so Baton never leaves one Codex cannot read), else refuses. */
function writeToml(path: string, text: string, what: string) {
  const read = parseToml(text);
  if (read.error !== null)
    throw invalidInput(
      `${what} ${path} would make it invalid TOML (${read.error}), so Baton writes nothing to it: see how \`mcp_servers\` is written there (an inline table cannot take another server), or add the \`baton\` server yourself`,
    );
  writeText(path, text);
}

/**
 * Registers Baton's MCP server (idempotent; a `baton` server of the user's own is kept and reported). A Codex
 * config.toml is read with a TOML parser, and Baton's block is written as text between its marker lines, the rest of
 * the file (its comments, its layout) as it was; one that does not parse is refused, written to never.
 */
export function addMcp(place: McpPlace, cmd: BatonCommand): McpChange {
  if (place.kind === 'codex-toml') {
    const current = readText(place.path);
    const refused = mcpRefusal(place, 'baton init');
    if (refused) throw invalidInput(refused);
    const stripped = withoutTomlBlock(current);
    // a `baton` server outside Baton's block is the user's, whatever its form
    const rest = parseToml(stripped.text);
    if (rest.doc && tomlServer(rest.doc) !== undefined) return 'theirs';
    const block = tomlBlock(cmd);
    const next = `${stripped.text}${stripped.text && !stripped.text.endsWith('\n') ? '\n' : ''}${stripped.text ? '\n' : ''}${block}\n`;
    if (next === current) return 'unchanged';
    writeToml(place.path, next, "Baton's MCP server added to");
    return stripped.found ? 'updated' : 'added';
  }
  const doc = readJsonObject(place.path);
  const servers = serversOf(doc, place.kind === 'claude-json' ? place.project : null, true) as JsonObject;
  const existing = servers.baton;
  if (existing !== undefined && !isBatonMcp(existing)) return 'theirs';
  const entry = entryOf(cmd, agentOf(place));
  if (JSON.stringify(existing) === JSON.stringify(entry)) return 'unchanged';
  servers.baton = entry;
  writeJsonObject(place.path, doc);
  return existing ? 'updated' : 'added';
}

/**
 * The objects Baton's server is in at this place, outermost first, the last holding the servers: `projects`, the
 * project's entry and its `mcpServers` in ~/.claude.json; `mcpServers` of the user's or .mcp.json. Codex's
 * `[mcp_servers.baton]` is a table of its own (`mcp_servers` is not written apart): none.
 */
export function mcpKeys(place: McpPlace): KeyPath[] {
  if (place.kind === 'codex-toml') return [];
  if (place.kind === 'claude-json' && place.project !== null)
    return [['projects'], ['projects', place.project], ['projects', place.project, 'mcpServers']];
  return [['mcpServers']];
}

/** Takes Baton's MCP server out again (only an entry Baton wrote; the objects it was in are `pruneEmpty`'s). */
export function removeMcp(place: McpPlace): McpChange {
  if (!existsSync(place.path)) return 'absent';
  if (place.kind === 'codex-toml') {
    const stripped = withoutTomlBlock(readText(place.path));
    if (!stripped.found) return 'absent';
    const refused = mcpRefusal(place, 'baton init --undo', true);
    if (refused) throw invalidInput(refused);
    writeToml(place.path, stripped.text, "Baton's MCP server taken out of");
    return 'removed';
  }
  const doc = readJsonObject(place.path);
  const servers = serversOf(doc, place.kind === 'claude-json' ? place.project : null, false);
  if (!servers || !isBatonMcp(servers.baton)) return 'absent';
  delete servers.baton;
  writeJsonObject(place.path, doc);
  return 'removed';
}

/**
 * Where Baton's server is registered, if it is: the entry found at this place, with the variables Codex forwards to
 * it (`env_vars`; null for Claude Code, which gives its servers its whole environment), and whether it runs `mcp`
 * naming the agent (`--agent`: what the agent does through the tools is then recorded as its own).
 */
export function findMcp(
  place: McpPlace,
): { command: string; args: string[]; forwards: string[] | null; names_agent: boolean } | null {
  if (!existsSync(place.path)) return null;
  if (place.kind === 'codex-toml') {
    // a file that does not parse names no server (`baton doctor` says it does not parse)
    const doc = parseToml(readText(place.path)).doc;
    const e = doc ? tomlServer(doc) : undefined;
    if (!isObject(e)) return null;
    const args = Array.isArray(e.args) ? e.args.map(String) : [];
    return {
      command: typeof e.command === 'string' ? e.command : '',
      args,
      forwards: [
        ...(Array.isArray(e.env_vars) ? e.env_vars.map(String) : []),
        ...(isObject(e.env) ? Object.keys(e.env) : []),
      ],
      names_agent: !!mcpCall(args)?.agent,
    };
  }
  let doc: JsonObject;
  try {
    doc = readJsonObject(place.path);
  } catch {
    return null;
  }
  const servers = serversOf(doc, place.kind === 'claude-json' ? place.project : null, false);
  const e = servers?.baton;
  if (!isObject(e)) return null;
  const args = Array.isArray(e.args) ? e.args.map(String) : [];
  return {
    command: typeof e.command === 'string' ? e.command : '',
    args,
    forwards: null,
    names_agent: !!mcpCall(args)?.agent,
  };
}
