import type { FileChange } from './context/file-change.js';

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const editTools = new Set(['Edit', 'MultiEdit', 'NotebookEdit']);
/** Anthropic's text editor tool (Agent SDK agents): its `command` says what it did; `view` only reads. */
const textEditorTools = new Set(['str_replace_based_edit_tool', 'str_replace_editor']);
const textEditorChanges: Record<string, FileChange> = {
  create: 'created',
  str_replace: 'edited',
  insert: 'edited',
  undo_edit: 'edited',
};
/** A patch's file headers; an update's `*** Move to:` line renames the file. */
const patchLine = /^\*\*\* (Add|Update|Delete) File: (.+)$(?:\n\*\*\* Move to: (.+)$)?/gm;
const patchKinds: Record<string, FileChange> = { Add: 'created', Update: 'edited', Delete: 'deleted' };

/** What a patch does to each file it names: a moved file is deleted where it was and created where it goes. */
export function patchChanges(patch: string): [FileChange, string][] {
  return [...patch.matchAll(patchLine)].flatMap((m): [FileChange, string][] => {
    const path = (m[2] ?? '').trim();
    const to = m[3]?.trim();
    if (to)
      return [
        ['deleted', path],
        ['created', to],
      ];
    return [[patchKinds[m[1] ?? 'Update'] ?? 'edited', path]];
  });
}

/** The changes a `codex exec --json` file_change item lists: `changes: [{path, kind: add|update|delete}]`. */
function listedChanges(changes: unknown): [FileChange, string][] {
  if (!Array.isArray(changes)) return [];
  const kinds: Record<string, FileChange> = { add: 'created', update: 'edited', delete: 'deleted' };
  return changes.flatMap((c): [FileChange, string][] => {
    const { path, kind } = obj(c);
    const change = typeof kind === 'string' ? kinds[kind] : undefined;
    return typeof path === 'string' && change ? [[change, path]] : [];
  });
}

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

/**
 * The files one successful call of an edit tool changed, each as the tool names it: Write and create_file (`created`
 * when the tool says it created the file, else `edited`), Edit, MultiEdit, NotebookEdit, Anthropic's text editor by
 * its command (a `view` changes nothing), and apply_patch (as a tool, a code-mode cell's patch, or the changes a
 * `codex exec --json` file_change item lists). A shell command's changes are not read here (`rm`, `mv`, `>`...).
 * `output` is what the tool answered.
 */
export function toolFileChanges(name: string, input: unknown, output: string): [FileChange, string][] {
  const fields = obj(input);
  const named = [fields.file_path, fields.notebook_path, fields.path].find((v) => typeof v === 'string');
  const path = typeof named === 'string' ? named : '';
  const out: [FileChange, string][] = [];
  if (name === 'Write' || name === 'create_file')
    out.push([/created/i.test(output.slice(0, 200)) || name === 'create_file' ? 'created' : 'edited', path]);
  else if (editTools.has(name)) out.push(['edited', path]);
  else if (textEditorTools.has(name)) {
    const change = typeof fields.command === 'string' ? textEditorChanges[fields.command] : undefined;
    if (change) out.push([change, path]);
  } else if (name === 'apply_patch' || name === 'exec') {
    const patch = patchText(input);
    if (patch) out.push(...patchChanges(patch));
    out.push(...listedChanges(fields.changes));
  }
  return out.filter(([, p]) => p !== '');
}
