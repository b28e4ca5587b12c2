import { existsSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { parseTranscript } from '../../agents/index.js';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import type { WorkflowView } from '../../client/views.js';
import { BatonError, invalidInput, isTerminal } from '../../core/index.js';
import { findGitTop, resolveWorktree } from '../../git/git.js';
import { readFirstLines } from '../../integrations/transcripts/read-new-bytes.js';

/** How much of the transcript's head is read for where and as which session it was recorded. */
const HEAD_BYTES = 1 << 18;

/**
 * `baton import <file>` without `-w` goes into this worktree's workflow. Refused before anything is written: a
 * transcript recorded in another folder of this machine outside the worktree (another project: its commits and files
 * are not this one's), and one another workflow of the worktree already recorded (its hooks followed that session or
 * it imported that file: an old conversation; importing it here would rewrite this workflow's goal and task list).
 * Naming the workflow with `-w` imports it anyway.
 */
export async function refuseForeignTranscript(client: BatonClient, ref: Ref, path: string, cwd: string) {
  // a file that cannot be read or parsed is left to the import, which says what is wrong with it
  const head = await readFirstLines(path, HEAD_BYTES)
    .then((text) => parseTranscript(text))
    .catch(() => null);
  const worktree = await resolveWorktree(cwd).catch(() => null);
  if (head === null || worktree === null) return;
  // recorded in another repository (or another worktree of this one) of this machine; a folder outside any (the
  // agent started above the project) is imported, with the import's warning
  const theirs = head.cwd && existsSync(head.cwd) ? await findGitTop(head.cwd).catch(() => null) : null;
  if (theirs !== null && realpathSync(theirs) !== realpathSync(worktree))
    throw invalidInput(
      `${path} was recorded in ${head.cwd}, ${realpathSync(theirs) === realpathSync(head.cwd ?? theirs) ? 'another repository' : `in another repository (${theirs})`} than this worktree ${worktree}: import it from there (or name the workflow to import it into with -w)`,
      { recorded_in: head.cwd },
    );
  // the session's own transcript (its id in the file's name): a sub-agent's file carries its parent's session id
  const id = head.session_id !== null && basename(path).includes(head.session_id) ? head.session_id : null;
  const recorded = (w: WorkflowView) =>
    w.transcripts.includes(path) || (id !== null && w.agent_sessions.includes(id));
  // newest first: a conversation resumed after its workflow was completed is followed by a newer one too
  const owners = (await client.list({ worktree }))
    .filter(recorded)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  const owner = owners.find((w) => !isTerminal(w.status)) ?? owners[0];
  if (!owner) return;
  const target = await client.status(ref).then(
    (s) => s.workflow.id,
    (e: unknown) => {
      if (BatonError.isInstance(e) && e.code === 'not_found') return null;
      throw e;
    },
  );
  if (owners.some((w) => w.id === target)) return;
  const open = !isTerminal(owner.status);
  throw invalidInput(
    `${path}${id ? ` (session ${id})` : ''} is already recorded in workflow ${owner.id} (${owner.status}): ${
      open
        ? `import it there with -w ${owner.id}`
        : `what it recorded is there (baton context -w ${owner.id}); to import it into another workflow anyway, name that one with -w`
    }`,
    { followed_by: owner.id },
  );
}
