import { counted } from '../../core/index.js';

/** What of an import a note must say besides its counts: the lines it skipped and its warnings. */
export interface ImportCaveats {
  skipped: readonly { line: number; reason: string }[];
  warnings: readonly string[];
}

/**
 * The lines of a transcript an import skipped (damaged: never read, and its read mark moves past them) and what it
 * warned of (a task list not followed, a file read again from the start), each as `; ...` to follow what the note says
 * it read: the Stop's import and every catch-up (a session start's, `baton context`'s, `baton pause`'s) say them alike.
 */
export function importCaveats(r: ImportCaveats): string {
  const bad = r.skipped[0]
    ? [
        `${counted(r.skipped.length, 'line')} of the transcript skipped, not read (line ${r.skipped[0].line}: ${r.skipped[0].reason}${r.skipped.length > 1 ? '; `baton import` on the file lists them all' : ''})`,
      ]
    : [];
  return [...bad, ...r.warnings].map((s) => `; ${s}`).join('');
}
