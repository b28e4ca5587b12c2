import {
  conflict,
  ownedBy,
  theirGitNote,
  theirWorkflowRefusal,
  workSpanOf,
  type Asker,
  type GitCapture,
  type WorkflowState,
} from '../core/index.js';
import type { GitPort } from './ports.js';

/**
 * The owner of a teammate's workflow (on a database a team shares), whose branch and files are not read or planned
 * from here; null when the workflow is the person's, or anyone's. Told by `asker`, the git identity of the person
 * asking where they are (a CLI sends its own to a server, as for a checkpoint restore: a server run under another
 * person's identity does not judge for them): theirs when it is not the owner. Without one, by the clone at the
 * worktree's path on this machine: theirs when it works under another git identity (their clone elsewhere, another
 * person's at the same path in devcontainers' `/workspaces/<repo>`).
 */
export async function theirCheckout(
  git: Pick<GitPort, 'owner' | 'mailmap'>,
  s: WorkflowState,
  asker?: string | null,
): Promise<string | null> {
  if (!s.owner) return null;
  const me = asker || (await git.owner(s.worktree));
  return (await isOwner(git, s.worktree, s, me)) ? null : s.owner;
}

/**
 * Whether a workflow is the work of `me` (a git email; null: none): `ownedBy`, or its owner's email is one git's
 * mailmap at `dir` maps to `me` (a `.mailmap` line `<me> <the old email>`, the repository's or `mailmap.file`'s): a
 * person whose email changed since the workflow began says so as git's own log is told, and the work stays theirs.
 * Nothing else is taken for it (the same name, or the same path and repository, is also another person's clone at
 * devcontainers' one path).
 */
export function isOwner(
  git: Pick<GitPort, 'mailmap'>,
  dir: string,
  w: { owner?: string | null | undefined },
  me: string | null,
): Promise<boolean> {
  return ownerJudge(git, dir, me)(w);
}

/**
 * The person asking (`email`: their git identity; none: no person) as the core records them on the event of their
 * command (`Asker`): whether they own `s` is judged here, at its worktree (`isOwner`), so the owner's own pause under
 * a changed email is not told to them as a teammate's.
 */
export async function askerFor(
  git: Pick<GitPort, 'mailmap'>,
  s: WorkflowState,
  email: string | null | undefined,
): Promise<Asker | undefined> {
  return email ? { email, owner: await isOwner(git, s.worktree, s, email) } : undefined;
}

/**
 * `isOwner` of `me` at `dir`, for several workflows: git's mailmap is asked only of an owner's email other than `me`
 * (one person's workflows ask git nothing), and once for each.
 */
export function ownerJudge(
  git: Pick<GitPort, 'mailmap'>,
  dir: string,
  me: string | null,
): (w: { owner?: string | null | undefined }) => Promise<boolean> {
  const asked = new Map<string, Promise<boolean>>();
  return (w) => {
    if (ownedBy(w, me)) return Promise.resolve(true);
    if (!me || !w.owner) return Promise.resolve(false);
    const known = asked.get(w.owner) ?? git.mailmap(dir, w.owner).then((mapped) => mapped === me);
    asked.set(w.owner, known);
    return known;
  };
}

/**
 * The workflow's git state as this machine can read it for the person asking (`asker`, as `theirCheckout` takes it):
 * its worktree's now, or, for a teammate's, none, with why (`theirGitNote`): what a resume warns of and a recovery
 * plans is not read from another person's clone.
 */
export async function workflowGit(
  git: GitPort,
  s: WorkflowState,
  asker?: string | null,
): Promise<GitCapture> {
  const owner = await theirCheckout(git, s, asker);
  if (owner) return { state: null, note: theirGitNote({ owner, worktree: s.worktree }, asker) };
  return git.captureGitState(s.worktree, workSpanOf(s));
}

/** Who asks a person's command (`asker`: their git identity, null: none set) and whether they mean a teammate's. */
export interface PersonAsk {
  asker: string | null;
  theirs?: boolean | undefined;
}

/**
 * A person's pause, resume, abandon or recovery of a workflow that is not theirs (`theirCheckout`: a teammate's on a
 * server or database a team shares) is refused, naming whose it is and how to do it anyway (`theirWorkflowRefusal`,
 * with `flags`, the rest of the command), unless `theirs` says they mean it. `asker`: the git identity of the person
 * asking (null: none set where they are).
 */
export async function refuseTheirs(
  git: Pick<GitPort, 'owner' | 'mailmap'>,
  s: WorkflowState,
  verb: 'pause' | 'resume' | 'abandon' | 'recover',
  ask: PersonAsk,
  flags = '',
): Promise<void> {
  if (ask.theirs) return;
  const owner = await theirCheckout(git, s, ask.asker);
  if (owner)
    throw conflict(theirWorkflowRefusal({ id: s.id, owner }, verb, ask.asker, flags), {
      owner,
      yours: false,
      theirs_needed: true,
    });
}
