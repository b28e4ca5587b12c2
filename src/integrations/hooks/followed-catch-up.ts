import { statSync } from 'node:fs';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import { counted } from '../../core/index.js';
import { CATCH_UP_MAX_BYTES } from './catch-up.js';
import { fileSlice } from './file-slice.js';
import { importCaveats } from './import-caveats.js';
import { followedTranscripts } from './unread-transcripts.js';

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
};

/** What an agent writes when the user cut its turn off: Claude Code's marker, Codex's event. */
const cutOff = /\[Request interrupted by user|"turn_aborted"/;

/** How much of a transcript's end is looked at for the interruption: its last lines. */
const TAIL_BYTES = 64 * 1024;

/**
 * Before a command decides on a workflow under way (`baton pause`), a turn the user cut off (Esc, Ctrl-C) is read
 * from its transcript, as the agent's next Stop would read it: a hook reports a turn's end, but such a turn sends
 * none, and only its transcript says it stopped. Only a transcript whose new part ends on the interruption is read:
 * read in the middle of a turn, an agent's message would look like the turn's end. The transcripts are those the
 * workflow imported and those its hooks saw on this machine (`home`'s hook log) but did not import yet (a turn cut
 * off in the first one); transcripts on another machine, or that did not grow, are left as they are. Gives what it
 * read and what it could not, in words for the user.
 */
export async function catchUpFollowed(client: BatonClient, ref: Ref, home: string): Promise<string[]> {
  const status = await client.status(ref);
  if (status.workflow.status !== 'in_progress') return [];
  const said: string[] = [];
  for (const { path, source, through } of followedTranscripts(status, home)) {
    const size = sizeOf(path);
    if (size === null || size <= through) continue;
    if (size - through > CATCH_UP_MAX_BYTES) {
      said.push(`${path} grew by more than 8 MB since its last import: the agent's next Stop reads it`);
      continue;
    }
    // the turn's last lines (Codex may write its bookkeeping after the event)
    const last = fileSlice(path, Math.max(through, size - TAIL_BYTES), size)
      .trim()
      .split('\n')
      .slice(-3);
    if (!last.some((line) => cutOff.test(line))) continue;
    try {
      // the importer and its rules load only when a transcript is read (`baton status` and `pause` seldom need them)
      const { importTranscriptFile } = await import('../transcripts/import-file.js');
      const r = await importTranscriptFile(client, { workflowId: status.workflow.id }, path, source);
      const caveats = importCaveats(r);
      if (r.new_entries)
        said.push(
          `read ${counted(r.new_entries, 'new transcript entry', 'new transcript entries')} of ${path}${caveats}`,
        );
      else if (caveats) said.push(`nothing new read of ${path}${caveats}`);
    } catch (e) {
      said.push(`could not read ${path}: ${(e as Error).message}`);
    }
  }
  return said;
}
