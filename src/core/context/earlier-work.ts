import { clip } from '../clip.js';
import type { GitState } from '../schemas/git-state.js';
import type { WorkflowState } from '../schemas/state.js';
import type { EarlierWorkflow } from '../schemas/workflow.js';
import { mergedOnce, type Goal } from './context-parts.js';
import { doneCommits } from './done-commits.js';
import { commitSaid, pullRequestSaid, pushSaid } from './done-words.js';
import type { ContextLimits } from './resume-context.js';

/** How many pull requests and commits of the earlier workflow are said (the newest): its push is said besides. */
const PULL_REQUESTS = 2;
const COMMITS = 4;

/**
 * The completed workflow a conversation goes on from, as the workflow that follows it records it: its id, its title
 * and what its work left done that must not be redone (its newest pull requests, its last push, its last commits),
 * a line each, in the words of Already Done, its commits read against `git` (the worktree's state as the new
 * workflow begins: a commit reset or rebased away since is said to be off the branch, as Already Done says it). A
 * completed workflow is never reopened, so this stays true. `newConversation`: it is the worktree's last workflow, over
 * when a new conversation began, not the same conversation's.
 */
export function earlierWork(
  w: WorkflowState,
  git: GitState | null,
  newConversation = false,
): EarlierWorkflow {
  const effects = w.side_effects ?? [];
  const prs = mergedOnce(effects.filter((e) => e.kind === 'pr').map((e) => e.summary)).slice(-PULL_REQUESTS);
  const push = effects.findLast((e) => e.kind === 'push');
  const commits = doneCommits(effects, git, { commit_subject_chars: 80, git_commits: 0 }).commits.slice(
    -COMMITS,
  );
  const done = [
    ...prs.map(pullRequestSaid),
    ...(push ? [pushSaid(push.summary)] : []),
    ...commits.map(commitSaid),
  ].map((line) => clip(line, 200));
  return {
    workflow_id: w.id,
    title: w.title,
    ...(done.length ? { done } : {}),
    ...(newConversation ? { new_conversation: true as const } : {}),
    ...(w.status === 'cancelled' ? { abandoned_at: w.ended_at ?? w.updated_at } : {}),
  };
}

/**
 * The earlier workflow as a briefing says it: its title clipped as a request is, and what it left done cut as the
 * pushes and pull requests are (`pushes_prs` lines, its pull requests and push kept before its commits; none once
 * they give way for room).
 */
export function earlierShown(e: EarlierWorkflow, limits: ContextLimits): NonNullable<Goal['earlier']> {
  const done = (e.done ?? []).slice(0, limits.pushes_prs);
  return {
    workflow_id: e.workflow_id,
    title: clip(e.title, limits.request_chars),
    done,
    ...(e.new_conversation ? { new_conversation: true as const } : {}),
    ...(e.abandoned_at ? { abandoned: true as const } : {}),
  };
}
