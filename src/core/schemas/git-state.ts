import { z } from 'zod';
import { WORK_COMMITS_LISTED } from '../work-commits-listed.js';

export { WORK_COMMITS_LISTED };

/**
 * A commit as git has it: a 12-digit hash and its subject line. `elsewhere`: this worktree did not make it (its HEAD's
 * reflog only arrived at it, by a checkout, a pull or a fast-forward: another worktree's or a teammate's commit), so it
 * is not the workflow's work unless a transcript of the workflow reported it.
 */
export const GitCommit = z.object({
  hash: z.string(),
  subject: z.string(),
  elsewhere: z.literal(true).optional(),
});
export type GitCommit = z.infer<typeof GitCommit>;

/**
 * The commits made since the workflow began, as git has them: HEAD's history after the start commit, committed at or
 * after `began_at` (a rebase onto a newer base brings in commits made before the workflow: they are not its work) and,
 * for a finished workflow, before it ended; those this worktree did not make are marked `elsewhere`.
 * Git is the truth here: a commit whose tool call never returned (the session died meanwhile) is in it.
 */
export const WorkCommits = z.object({
  /** The newest WORK_COMMITS_LISTED, oldest first. */
  listed: z.array(GitCommit),
  /** Older ones, not listed. */
  more: z.number().int().nonnegative(),
  /** When the workflow began (its creation). */
  began_at: z.string(),
});
export type WorkCommits = z.infer<typeof WorkCommits>;

/**
 * A merge git could not finish in the worktree: the files it left unmerged (`UU` in `git status`: conflict markers in
 * them, not yet marked resolved), after a merge, a rebase, a cherry-pick, a revert or a `git stash pop`, and the
 * operation still in progress (null: none, as after a stash pop, whose conflicts are only in the files).
 */
export const GitConflict = z.object({
  operation: z.enum(['merge', 'rebase', 'cherry-pick', 'revert']).nullable(),
  unmerged: z.array(z.string()),
});
export type GitConflict = z.infer<typeof GitConflict>;

/** Git repository state at snapshot time (Amelia's GitState). */
export const GitState = z.object({
  branch: z.string(),
  commit_at_workflow_start: z.string().nullable(),
  commit_at_snapshot: z.string().nullable(),
  files_modified: z.array(z.string()),
  files_staged: z.array(z.string()),
  has_uncommitted_changes: z.boolean(),
  uncommitted_summary: z.string().nullable(),
  /**
   * The files with uncommitted changes, untracked ones included, Baton's block apart (absent in snapshots taken before
   * they were kept).
   */
  uncommitted_files: z.array(z.string()).optional(),
  /**
   * Those of `uncommitted_files` that a commit since the workflow began changed too: committed, then changed again
   * (Already Done says so of a file the agent created: its creation is in a commit). Absent when none is.
   */
  changed_after_commit: z.array(z.string()).optional(),
  /**
   * The files (CLAUDE.md, AGENTS.md) whose only change is Baton's instructions block, from `baton init`: not the
   * user's work, so in none of the lists above, nor in the summary (absent when there is none).
   */
  baton_block: z.array(z.string()).optional(),
  /** HEAD's subject line (null without commits; absent in snapshots taken before it was kept). */
  head_subject: z.string().nullable().optional(),
  /** The workflow's commits (absent in snapshots taken before they were read, and without a workflow start). */
  work_commits: WorkCommits.optional(),
  /**
   * Whether HEAD's history holds the commit the workflow's work was last seen at (`WorkSpan.place`), asked when another
   * branch than that one is checked out (absent otherwise, or when git could not tell).
   */
  place_held: z.object({ commit: z.string(), held: z.boolean() }).optional(),
  /** An unresolved conflict, or a merge, rebase, cherry-pick or revert in progress (absent: none, or not read). */
  conflict: GitConflict.optional(),
  /**
   * The commits the workflow's transcripts reported (`WorkSpan.reported`) that HEAD's history does not hold, as git
   * answered: each by the hash reported and the branches that hold it (local ones, then remote-tracking ones; none: on
   * no branch, as after a `git reset --hard` that left it behind). A commit git does not know is not here (absent: none,
   * or not asked).
   */
  off_head: z.array(z.object({ hash: z.string(), branches: z.array(z.string()) })).optional(),
});
export type GitState = z.infer<typeof GitState>;

/** What a capture returns: the state, or a note saying why there is none (not a repository, git missing). */
export const GitCapture = z.object({
  state: GitState.nullable(),
  note: z.string().nullable(),
});
export type GitCapture = z.infer<typeof GitCapture>;

/** Where git stood at a point (the end of an agent's turn): enough to tell whether it moved since (`sameGit`). */
export const GitMark = GitState.pick({
  branch: true,
  commit_at_snapshot: true,
  has_uncommitted_changes: true,
  uncommitted_files: true,
});
export type GitMark = z.infer<typeof GitMark>;

/**
 * Where a workflow began in git: its branch and HEAD (null in a repository without commits), and the files already
 * changed then (uncommitted or untracked), each with its content's blob hash ('' for a file deleted): not the
 * workflow's work unless they change again (absent: none, or a workflow created before this was kept).
 */
export const GitStart = z.object({
  branch: z.string().nullable(),
  commit: z.string().nullable(),
  dirty: z.record(z.string(), z.string()).optional(),
});
export type GitStart = z.infer<typeof GitStart>;

/**
 * What a workflow's git work is measured from: HEAD when it began (null in a repository without commits), the files
 * already changed then (`GitStart.dirty`), when it began (its creation), and when it ended (null while it goes on: a
 * finished workflow's work is not what came after).
 */
export interface WorkSpan {
  commit: string | null;
  dirty?: Readonly<Record<string, string>>;
  at: string;
  until: string | null;
  /** The branch and commit its work was last seen at (`workflowPlace`), when known. */
  place?: { branch: string; commit: string };
  /**
   * The commits its transcripts reported, oldest first, each by its hash and when it was reported: git is asked
   * whether HEAD holds them.
   */
  reported?: readonly { hash: string; at: string }[];
}
