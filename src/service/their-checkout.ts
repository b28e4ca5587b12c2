import { theirGitNote, workSpanOf, type GitCapture, type WorkflowState } from '../core/index.js';
import type { GitPort } from './ports.js';

/**
 * The owner of a workflow whose worktree's path holds, on this machine, a clone that works under another git identity
 * (a teammate's workflow on a database a team shares: their clone elsewhere, another person's at the same path in
 * devcontainers' `/workspaces/<repo>`): its branch and files there are not the workflow's. Null when the clone there is
 * the owner's, or the workflow is anyone's.
 */
export async function theirCheckout(git: Pick<GitPort, 'owner'>, s: WorkflowState): Promise<string | null> {
  if (!s.owner) return null;
  return (await git.owner(s.worktree)) === s.owner ? null : s.owner;
}

/**
 * The workflow's git state as this machine can read it: its worktree's now, or, for a teammate's (`theirCheckout`),
 * none, with why (`theirGitNote`): what a resume warns of and a recovery plans is not read from another person's clone.
 */
export async function workflowGit(git: GitPort, s: WorkflowState): Promise<GitCapture> {
  const owner = await theirCheckout(git, s);
  if (owner) return { state: null, note: theirGitNote({ owner, worktree: s.worktree }) };
  return git.captureGitState(s.worktree, workSpanOf(s));
}
