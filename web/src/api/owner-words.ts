import { ApiError } from './api-client.js';

/**
 * A teammate's workflow, as the dashboard tells it on a database a team shares: the workflow's owner (the git identity
 * it was made under) and its worktree, when the owner is not the person the server serves (`you`: the git identity
 * where `baton serve` runs, as the CLI tells theirs from a teammate's where it runs). Null when it is theirs, anyone's,
 * or the server cannot tell (no identity where it runs, or a server that does not say `you`).
 */
export interface Teammate {
  owner: string;
  worktree: string;
}

export function teammateOf(
  w: { owner?: string | null | undefined; worktree: string },
  you: string | null | undefined,
): Teammate | null {
  return you && w.owner && w.owner !== you ? { owner: w.owner, worktree: w.worktree } : null;
}

/** Whether the workflows are more than one person's, as `baton list` and `baton sessions` show their OWNER column. */
export const severalOwners = (owners: readonly (string | null | undefined)[]): boolean =>
  new Set(owners.map((o) => o ?? null)).size > 1;

/**
 * A teammate's checkpoint on the recovery page: its branch and files go back only in their worktree, by them (the
 * server refuses the restore from here), and what the person can do instead: put back the records alone.
 */
export const theirCheckpointWords = (t: Teammate, workflowId: string, checkpoint: string) => ({
  description: `Back to checkpoint ${checkpoint}: from here, its task states only`,
  whose: `${t.owner}'s checkpoint`,
  where: `its branch and files go back only in their worktree ${t.worktree}, by them:`,
  command: `baton recover -w ${workflowId} --checkpoint ${checkpoint}`,
  instead:
    'From here, Restore only the records puts back its task statuses and starts a new session; no worktree is touched.',
});

/** A person's command of a workflow that the server refuses on a teammate's unless it is meant (`"theirs": true`). */
export type TheirsAct = 'pause' | 'resume' | 'withdraw' | 'abandon' | 'recover';
const acts: Record<TheirsAct, string> = {
  pause: 'pause it',
  resume: 'resume it',
  withdraw: 'withdraw its pause',
  abandon: 'abandon it',
  recover: 'recover it',
};

/** What the dashboard asks before it sends one of these on a teammate's workflow (docs/dashboard.md). */
export const theirsQuestion = (owner: string, act: TheirsAct) =>
  `This is ${owner}'s workflow, not yours: ${acts[act]} anyway? They and their agent will be told.`;

/**
 * The owner a 409 names when the workflow turned out to be a teammate's (`theirs_needed`: another client may have
 * changed whose it is, or the page could not tell); null for any other error.
 */
export function theirsNeeded(e: unknown): string | null {
  if (!(e instanceof ApiError) || e.status !== 409 || e.details['theirs_needed'] !== true) return null;
  const owner = e.details['owner'];
  return typeof owner === 'string' ? owner : 'a teammate';
}

/** Where a teammate's workflow goes on: with their agent, in their worktree (not in one of yours). */
export const teammateGoesOn = (t: Teammate) =>
  `${t.owner}'s agent goes on with it, in their worktree ${t.worktree}`;

/**
 * What the Workflows page knows of whose each workflow is: the person it serves (`you`, as the server says it) and
 * whether the owners are shown (`shown`: the workflows are several people's, or a teammate's among them).
 */
export interface Owners {
  you: string | null | undefined;
  shown: boolean;
}
