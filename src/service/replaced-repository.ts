import { pause, SessionSnapshot, shortHash, type WorkflowState } from '../core/index.js';
import type { Store } from '../storage/store.js';
import type { BatonService } from './baton-service.js';
import type { GitPort } from './ports.js';

/** A workflow whose worktree is now another repository (deleted and made again at its path), and why that is known. */
export interface SetAside {
  workflow_id: string;
  /** The user's request it followed (its issue), else its title. */
  title: string;
  /** Its status now (paused, unless it was stopped already). */
  status: WorkflowState['status'];
  reason: string;
}

/**
 * The commits a workflow recorded of its repository: HEAD at its start, at its checkpoints and at its latest snapshot.
 * The repository at its worktree is another one (deleted and made again at the same path, `git init` or a clone
 * without them) when it holds none of them: the reason, else null. A workflow that recorded no commit (begun in a
 * repository without commits, none made since) cannot be told apart, and stays the worktree's.
 */
export async function replacedRepository(
  store: Store,
  git: GitPort,
  w: WorkflowState,
): Promise<string | null> {
  const row = w.last_snapshot ? await store.getRecord(w.id, 'snapshot', w.last_snapshot.id) : null;
  const head = row ? SessionSnapshot.parse(row.data).git_state?.commit_at_snapshot : null;
  const recorded = [w.git_start?.commit, ...w.checkpoints.map((c) => c.commit), head];
  const commits = [...new Set(recorded.filter((c): c is string => !!c))];
  if (commits.length === 0) return null;
  // HEAD is one of them (the common case, read without starting git): the same repository
  const now = (await git.gitStart(w.worktree))?.commit;
  if (now && commits.includes(now)) return null;
  const here = await git.knownCommits(w.worktree, commits);
  // git cannot tell (not a repository now, git missing): nothing is decided on it
  if (here === null || here.length > 0) return null;
  const which =
    commits.length === 1
      ? `the commit it recorded (${shortHash(commits[0] ?? '')})`
      : `none of the ${commits.length} commits it recorded (${commits.map(shortHash).join(', ')})`;
  return `the repository at ${w.worktree} is not the one it followed: ${commits.length === 1 ? `${which} is not in it` : `${which} is in it`} (deleted and made again at that path?)`;
}

/**
 * Sets aside a workflow of a repository that is gone: paused (when it runs) with why, so it is not continued in the
 * new repository and stays resumable. Its pause snapshot records no git state: it is not this repository's.
 */
export async function setAside(svc: BatonService, w: WorkflowState, reason: string): Promise<SetAside> {
  const title = w.issue?.title ?? w.title;
  if (w.status !== 'in_progress' && w.status !== 'blocked')
    return { workflow_id: w.id, title, status: w.status, reason };
  const git = { state: null, note: reason };
  const out = await svc.runner.run(
    w.id,
    (d) => pause(d, { reason, trigger: 'pause', force: true, timeoutMs: svc.options.pauseTimeoutMs, git }),
    { retry: true },
  );
  return { workflow_id: w.id, title, status: out.state.status, reason };
}
