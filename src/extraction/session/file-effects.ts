import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { callFileChanges } from '../../core/call-file-changes.js';
import { inFolder } from '../../core/shell-file-changes.js';
import { fileChangeSummary, type FileChange } from '../../core/context/file-change.js';
import { toolOutcome } from './tool-failed.js';
import type { Effect } from './git-effects.js';

/**
 * Files the session created, edited and deleted: every change, when it was made (ten edits of one file are ten
 * "edited"; the import's ledger records one per file and change, and another after a check: transcript-import.ts). Read from successful results of the edit tools (Write, Edit, NotebookEdit, apply_patch as a tool, a
 * shell command or a code-mode patch) and of the shell's own changes (`rm`, `cp`, `mv`, `>`, `tee`): callFileChanges.
 * A path relative to the folder the agent worked in (Codex's patches name `clamp.js` in `src/lib`) is taken under
 * `folder`, that folder's place in the worktree, when the agent worked below the worktree's root. `root`: another
 * machine's folder taken as the worktree's root (the session was recorded there): a path under it is named as the
 * worktree's (`/Users/a/shop/src/x.ts` is `src/x.ts`).
 */
export function findFileEffects(
  entries: readonly TranscriptEntry[],
  folder: string | null = null,
  root: string | null = null,
): Effect[] {
  const out: Effect[] = [];
  const placed = (path: string) => underRoot(root, folder ? inFolder(folder, path) : path);
  // each change of a call once (a patch naming a file twice); the ledger of the import keeps one per file and change
  const add = (e: TranscriptEntry, change: FileChange, path: string, tool: string) => {
    const summary = fileChangeSummary(change, placed(path));
    const last = out.at(-1);
    if (last?.line === e.line && last.summary === summary) return;
    out.push({ line: e.line, at: e.at, kind: 'file_write', tool, summary });
  };
  for (const e of entries) {
    if (e.sidechain || e.kind !== 'tool_result' || !e.tool?.name) continue;
    for (const { change, path, tool } of callFileChanges(toolOutcome(e))) add(e, change, path, tool);
  }
  return out;
}

/** `path` as named from `root` when it is under it (`root` itself is `.`); as it is otherwise. */
function underRoot(root: string | null, path: string): string {
  const r = root?.replace(/[\\/]+$/, '');
  if (!r) return path;
  if (path === r) return '.';
  return path.startsWith(`${r}/`) || path.startsWith(`${r}\\`) ? path.slice(r.length + 1) : path;
}
