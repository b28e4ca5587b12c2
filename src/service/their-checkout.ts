import { theirGitNote, workSpanOf, type GitCapture, type WorkflowState } from '../core/index.js';
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
  git: Pick<GitPort, 'owner'>,
  s: WorkflowState,
  asker?: string | null,
): Promise<string | null> {
  if (!s.owner) return null;
  if (asker) return asker === s.owner ? null : s.owner;
  return (await git.owner(s.worktree)) === s.owner ? null : s.owner;
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
