import type { BatonClient } from '../client/baton-client.js';
import { BatonError, ResumeRefusal, resumeRefusalText } from '../core/index.js';
import * as git from '../git/git.js';
import { isOwner, ownerJudge } from '../service/their-checkout.js';

/**
 * The person asking about the workflow `ref` from `cwd`: their git identity there; outside any git worktree, the one
 * git gives them in the workflow's worktree (`identityAt`), whose folder is asked of the client only then.
 */
export async function askerAt(
  cwd: string,
  client: BatonClient,
  ref: Parameters<BatonClient['get']>[0],
): Promise<string | null> {
  const inside = await git.findGitTop(cwd).catch(() => null);
  const worktree = inside ? null : (await client.get(ref).catch(() => null))?.worktree;
  return git.identityAt(cwd, worktree);
}

/**
 * Where a workflow goes on, said when it is not here: its worktree, and whose it is when it is not the person's (a
 * teammate's on a database a team shares: `owner`, null when it is yours or anyone's).
 */
export interface Elsewhere {
  worktree: string;
  owner: string | null;
}

/**
 * Where the workflow goes on when a command at `cwd` is not where it does: another folder (`-w` from a teammate's
 * clone, another worktree), or another person's work (another git identity's, even at this path: devcontainers'
 * `/workspaces/<repo>`), whose owner is named. Null when it goes on here. `me`: the person's identity at `cwd`, when
 * the caller already asked it (`identityAt`).
 */
export async function elsewhereOf(
  cwd: string,
  w: { worktree: string | null; owner?: string | null | undefined },
  me?: string | null,
): Promise<Elsewhere | null> {
  if (!w.worktree) return null;
  const mine = await isOwner(git, cwd, w, me === undefined ? await git.identityAt(cwd) : me);
  const theirs = w.owner && !mine ? w.owner : null;
  if (theirs) return { worktree: w.worktree, owner: theirs };
  const here = await git.resolveWorktree(cwd).catch(() => null);
  return here === w.worktree ? null : { worktree: w.worktree, owner: null };
}

/** The ids of the workflows among `rows` that are a teammate's to the person at `cwd` (`isOwner`: not theirs). */
export async function theirsAmong(
  cwd: string,
  rows: { id: string; owner?: string | null | undefined }[],
): Promise<Set<string>> {
  const mine = ownerJudge(git, cwd, await git.identityAt(cwd));
  const judged = await Promise.all(rows.map(async (r) => ((await mine(r)) ? null : r.id)));
  return new Set(judged.filter((id): id is string => id !== null));
}

/**
 * Whose the workflow is, in a command's `--json`: its owner (the git identity it was made under; null: anyone's) and
 * whether it is the person's here (false: a teammate's, `elsewhere.owner`).
 */
export const ownerFields = (w: { owner?: string | null | undefined }, elsewhere: Elsewhere | null) => ({
  owner: w.owner ?? null,
  yours: !elsewhere?.owner,
});

/**
 * A resume refused for a teammate's workflow (in progress: its agent goes on with it), said as theirs: the core's
 * refusal carries what it refused as data (`resume_refusal`), and knows no "you"; here, where the person is known, it
 * is said again with the owner (`ana@team.example's worktree`, the workflow named theirs). Any other error is returned
 * as it is. `me`: the person's identity at `cwd`, when the caller already asked it.
 */
export async function resumeRefusedTheirs(
  e: unknown,
  cwd: string,
  get: (workflowId: string) => Promise<{ worktree: string | null; owner?: string | null | undefined }>,
  me?: string | null,
): Promise<unknown> {
  if (!BatonError.isInstance(e) || e.code !== 'invalid_transition') return e;
  const refusal = ResumeRefusal.safeParse(e.details.resume_refusal);
  if (!refusal.success) return e;
  const theirs = (await elsewhereOf(cwd, await get(refusal.data.workflow_id), me))?.owner;
  if (!theirs) return e;
  return new BatonError(e.code, resumeRefusalText(refusal.data, 'resume', theirs), {
    ...e.details,
    owner: theirs,
    yours: false,
  });
}
