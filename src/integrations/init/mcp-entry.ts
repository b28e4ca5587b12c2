import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PACKAGE_NAME } from '../../config/package-info.js';
import type { AgentFiles } from './agent-files.js';
import type { KeyPath } from './created-keys.js';
import type { BatonCommand } from './hook-command.js';
import { isObject, readJsonObject, writeJsonObject, type JsonObject } from './json-file.js';

export type McpPlace = AgentFiles['mcp'];
export type McpChange = 'added' | 'updated' | 'unchanged' | 'theirs' | 'removed' | 'absent';

const mentionsBaton = (s: unknown) =>
  typeof s === 'string' && (s.includes('baton') || s.includes(PACKAGE_NAME));

/** An MCP server entry Baton wrote: it runs `… baton … mcp`. A `baton` entry of the user's own is left alone. */
export function isBatonMcp(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const args = Array.isArray(entry.args) ? entry.args : [];
  return args[args.length - 1] === 'mcp' && (mentionsBaton(entry.command) || args.some(mentionsBaton));
}

const entryOf = (cmd: BatonCommand) => ({ type: 'stdio', command: cmd.program, args: [...cmd.args, 'mcp'] });

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

function tomlBlock(cmd: BatonCommand): string {
  return [
    TOML_BEGIN,
    '[mcp_servers.baton]',
    `command = ${tomlString(cmd.program)}`,
    `args = [${[...cmd.args, 'mcp'].map(tomlString).join(', ')}]`,
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

function withoutTomlBlock(text: string): { text: string; found: boolean } {
  const start = text.indexOf(TOML_BEGIN);
  const end = text.indexOf(TOML_END, start);
  if (start < 0 || end < 0) return { text, found: false };
  const after = text.slice(end + TOML_END.length).replace(/^\n/, '');
  const before = text.slice(0, start).replace(/\n+$/, start > 0 ? '\n' : '');
  return { text: before + (before && after ? '\n' : '') + after, found: true };
}

/** Registers Baton's MCP server (idempotent; a `baton` server of the user's own is kept and reported). */
export function addMcp(place: McpPlace, cmd: BatonCommand): McpChange {
  if (place.kind === 'codex-toml') {
    const current = readText(place.path);
    const stripped = withoutTomlBlock(current);
    if (!stripped.found && /^\s*\[mcp_servers\.baton\]/m.test(current)) return 'theirs';
    const block = tomlBlock(cmd);
    const next = `${stripped.text}${stripped.text && !stripped.text.endsWith('\n') ? '\n' : ''}${stripped.text ? '\n' : ''}${block}\n`;
    if (next === current) return 'unchanged';
    writeText(place.path, next);
    return stripped.found ? 'updated' : 'added';
  }
  const doc = readJsonObject(place.path);
  const servers = serversOf(doc, place.kind === 'claude-json' ? place.project : null, true) as JsonObject;
  const existing = servers.baton;
  if (existing !== undefined && !isBatonMcp(existing)) return 'theirs';
  const entry = entryOf(cmd);
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
    writeText(place.path, stripped.text);
    return 'removed';
  }
  const doc = readJsonObject(place.path);
  const servers = serversOf(doc, place.kind === 'claude-json' ? place.project : null, false);
  if (!servers || !isBatonMcp(servers.baton)) return 'absent';
  delete servers.baton;
  writeJsonObject(place.path, doc);
  return 'removed';
}

/** Where Baton's server is registered, if it is: the entry found at this place. */
export function findMcp(place: McpPlace): { command: string; args: string[] } | null {
  if (!existsSync(place.path)) return null;
  if (place.kind === 'codex-toml') {
    const text = readText(place.path);
    const at = text.search(/^\s*\[mcp_servers\.baton\]/m);
    if (at < 0) return null;
    const body = text.slice(at).split(/\n\s*\[/)[0] ?? '';
    const command = /command\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(body)?.[1] ?? '';
    const args = [...(/args\s*=\s*\[([^\]]*)\]/.exec(body)?.[1] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(
      (m) => m[1] ?? '',
    );
    return { command: JSON.parse(`"${command}"`) as string, args };
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
  return {
    command: typeof e.command === 'string' ? e.command : '',
    args: Array.isArray(e.args) ? e.args.map(String) : [],
  };
}
