import {
  isDetached,
  isEmptyWorkflow,
  isTerminal,
  limitHolding,
  ownedBy,
  workflowBranch,
  workflowStatuses,
  type TeammateWork,
  type WorkflowState,
} from '../core/index.js';
import type { Store } from '../storage/store.js';
import { byIsoTime } from '../core/iso-order.js';
import type { GitPort } from './ports.js';
import { ownerJudge } from './their-checkout.js';

/** How many are named: the newest; a team's store may hold many, and each is one line where the user looks. */
const NAMED = 3;

/** The commits a workflow recorded of its repository (its start, checkpoints, latest snapshot): any clone holds some. */
const recordedCommits = (w: WorkflowState): string[] => {
  const seen = [w.git_start?.commit, ...w.checkpoints.map((c) => c.commit), w.last_snapshot?.commit];
  return [...new Set(seen.filter((c): c is string => !!c))];
};

/**
 * Other people's unfinished workflows beside the work of `owner` at `worktree` (core `TeammateWork`), newest first:
 * those of this path made under another git identity, and those of another folder last seen on the branch checked
 * out here whose commits this repository holds (the same project, not another one's branch of the same name). A
 * workflow made without an identity is anyone's, not another person's, one made under an old email of `owner`'s that
 * git's mailmap here maps to it is theirs (`isOwner`), and one that holds nothing yet (a conversation opened, nothing
 * asked) has nothing to read: none of them is named.
 */
export async function teammateWork(
  store: Store,
  git: GitPort,
  worktree: string,
  owner: string | null,
  now: Date,
): Promise<TeammateWork[]> {
  const open = await store.listWorkflows({ status: workflowStatuses.filter((s) => !isTerminal(s)) });
  const theirs = open
    .filter((w) => !ownedBy(w, owner) && !isEmptyWorkflow(w))
    .sort((a, b) => byIsoTime(b.updated_at, a.updated_at));
  if (!theirs.length) return [];
  const head = (await git.gitStart(worktree))?.branch;
  const branch = head && !isDetached(head) ? head : null;
  const found: TeammateWork[] = [];
  // the mailmap is asked only of a workflow that would be named (an owner's email changed since: not another's)
  const mine = ownerJudge(git, worktree, owner);
  for (const w of theirs) {
    if (found.length === NAMED) break;
    const sameFolder = w.worktree === worktree;
    if (!sameFolder) {
      if (branch === null || workflowBranch(w) !== branch) continue;
      if (!(await git.knownCommits(worktree, recordedCommits(w)))?.length) continue;
    }
    if (await mine(w)) continue;
    found.push({
      workflow_id: w.id,
      owner: w.owner as string,
      title: w.issue?.title ?? w.title,
      status: w.status,
      updated_at: w.updated_at,
      branch: workflowBranch(w),
      same_folder: sameFolder,
      stopped: limitHolding(w.summaries, w.recent_requests, now),
    });
  }
  return found;
}
