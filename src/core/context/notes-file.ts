import { fileChangeOf } from './file-change.js';

/**
 * A file that keeps an account of the work by its name: a state, plan, progress, handoff, todo or notes file
 * (`.planning/STATE.md`, `PLAN.md`, `RESUME.md`, `notes.txt`), or a plan under a `plans/` folder (Claude Code's plan
 * mode, `docs/plans/...`). The one the work wrote last often holds more of where it stands than anything else the
 * next session gets: it reads it before going on.
 */
const notesName =
  /^(?:state|status|plan|progress|resume|handoff|hand-off|todo|todos|tasks|notes|worklog|work-log|journal|next[-_]steps|scratchpad|session[-_]notes)\.(?:md|markdown|txt)$/i;
const planFolder = /(?:^|\/)plans\/[^/]+\.(?:md|markdown)$/i;

export function isNotesFile(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  return notesName.test(p.split('/').at(-1) ?? '') || planFolder.test(p);
}

/** The notes file the session wrote last (created or edited, and not deleted after); null when it wrote none. */
export function notesFileOf(effects: readonly { kind: string; summary: string }[]): string | null {
  for (let i = effects.length - 1; i >= 0; i--) {
    const e = effects[i] as { kind: string; summary: string };
    const change = e.kind === 'file_write' ? fileChangeOf(e.summary) : null;
    if (!change || !isNotesFile(change.path)) continue;
    return change.change === 'deleted' ? null : change.path;
  }
  return null;
}
