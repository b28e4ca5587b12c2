import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { shellCommands } from '../rules/shell-command.js';
import type { Effect } from './git-effects.js';

type Change = 'created' | 'edited' | 'deleted';

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const editTools = new Set(['Edit', 'MultiEdit', 'NotebookEdit', 'str_replace_based_edit_tool']);
const patchLine = /^\*\*\* (Add|Update|Delete) File: (.+)$/gm;
const patchKinds: Record<string, Change> = { Add: 'created', Update: 'edited', Delete: 'deleted' };

/** The text of an apply_patch call: its input, or the patch a code-mode cell assigns (`const patch = "..."`). */
export function patchText(input: unknown): string | null {
  if (typeof input !== 'string')
    return typeof obj(input).input === 'string' ? (obj(input).input as string) : null;
  if (input.trimStart().startsWith('*** Begin Patch')) return input;
  const m = /"(\*\*\* Begin Patch(?:[^"\\]|\\.)*)"/.exec(input);
  if (!m?.[1]) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1];
  }
}

/** Paths a plain `rm` removes (flags and globs left out). */
function removed(command: string): string[] {
  const out: string[] = [];
  for (const part of command.split(/&&|\|\||;/)) {
    const words = part.trim().split(/\s+/);
    if (words[0] !== 'rm' && !(words[0] === 'git' && words[1] === 'rm')) continue;
    for (const w of words.slice(words[0] === 'git' ? 2 : 1)) {
      if (w.startsWith('-') || /[*?]/.test(w)) continue;
      out.push(w.replace(/^["']|["']$/g, ''));
    }
  }
  return out;
}

const failed = (e: TranscriptEntry) =>
  e.tool?.is_error === true ||
  (e.tool?.exit_code !== null && e.tool?.exit_code !== undefined && e.tool.exit_code !== 0);

/**
 * Files the session created, edited and deleted, one effect per file and change (ten edits of one file are one
 * "edited"). Read from successful results of the edit tools (Write, Edit, apply_patch, code-mode patches) and of
 * plain `rm` commands.
 */
export function findFileEffects(entries: readonly TranscriptEntry[]): Effect[] {
  const out: Effect[] = [];
  const seen = new Set<string>();
  const add = (e: TranscriptEntry, change: Change, path: string, tool: string) => {
    const key = `${change}:${path}`;
    if (!path || seen.has(key)) return;
    seen.add(key);
    out.push({ line: e.line, at: e.at, kind: 'file_write', tool, summary: `${change} ${path}` });
  };
  for (const e of entries) {
    if (e.sidechain || e.kind !== 'tool_result' || !e.tool?.name || failed(e)) continue;
    const name = e.tool.name;
    const input = obj(e.tool.input);
    const path =
      typeof input.file_path === 'string'
        ? input.file_path
        : typeof input.path === 'string'
          ? input.path
          : '';
    if (name === 'Write' || name === 'create_file') {
      add(
        e,
        /created/i.test(e.text.slice(0, 200)) || name === 'create_file' ? 'created' : 'edited',
        path,
        name,
      );
    } else if (editTools.has(name)) {
      add(e, 'edited', path, name);
    } else if (name === 'apply_patch' || name === 'exec') {
      const patch = patchText(e.tool.input);
      if (patch)
        for (const m of patch.matchAll(patchLine))
          add(e, patchKinds[m[1] ?? 'Update'] ?? 'edited', (m[2] ?? '').trim(), 'apply_patch');
    }
    for (const command of shellCommands(e)) for (const p of removed(command)) add(e, 'deleted', p, name);
  }
  return out;
}
