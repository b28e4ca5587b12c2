import { statSync } from 'node:fs';
import { BatonError } from '../../core/index.js';
import type { HookContext } from './handle-event.js';
import type { TranscriptSource } from '../transcripts/transcript-import.js';

/** The agent that writes each transcript format (an import names its source). */
const sourceOf = (format: string): TranscriptSource | null =>
  format.startsWith('claude-code') ? 'claude-code' : format.startsWith('codex') ? 'codex' : null;

const sizeOf = (path: string): number | null => {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
};

/**
 * Before a session start hands over the context, what the worktree workflow's transcripts gained since their last
 * import is read: a session cut off (a crash, a kill, a closed terminal) never sent the Stop that imports its last
 * turn, and a Codex task list arrives only with it. Only transcripts that grew are read (a size check each). Returns
 * what was done, for the hook's note; a transcript that cannot be read is said there and does not stop the start.
 */
export async function catchUpTranscripts(ctx: HookContext): Promise<string | null> {
  let status;
  try {
    status = await ctx.client.status({ cwd: ctx.worktree ?? ctx.payload.cwd });
  } catch (e) {
    // no workflow here yet, or several (the start picks and says): nothing to catch up from here
    if (BatonError.isInstance(e) && (e.code === 'not_found' || e.code === 'ambiguous')) return null;
    throw e;
  }
  const grown = Object.values(status.imports ?? {}).filter(
    (m) =>
      m.path && sourceOf(m.format) && (sizeOf(m.path) ?? 0) > (m.through_byte ?? Number.MAX_SAFE_INTEGER),
  );
  if (grown.length === 0) return null;
  const { importTranscriptFile } = await import('../transcripts/import-file.js');
  const notes: string[] = [];
  for (const m of grown) {
    const path = m.path as string;
    try {
      const r = await importTranscriptFile(
        ctx.client,
        { workflowId: status.workflow.id },
        path,
        sourceOf(m.format) as TranscriptSource,
      );
      notes.push(`read ${r.new_entries} entries ${path} gained since its last import`);
    } catch (e) {
      notes.push(`could not read what ${path} gained since its last import: ${(e as Error).message}`);
    }
  }
  return notes.join('; ');
}
