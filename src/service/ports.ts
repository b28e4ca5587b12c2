import type {
  CapacityPolicy,
  GitCapture,
  GitMark,
  GitStart,
  TokenCounter,
  WorkCommits,
  WorkSpan,
  WorkflowState,
} from '../core/index.js';
import type { ExecutorRow } from '../storage/executor-registry.js';
import type { RecordInput } from './record-input.js';
import type { CrashWatchOptions } from './runtime/crash-watch.js';
import type { TaskLogs } from './runtime/run-events.js';
import type { AgentSignal } from './runtime/runtime-ports.js';

/** What the service needs from git (src/git implements it with the real binary). */
export interface GitPort {
  resolveWorktree(dir: string): Promise<string>;
  gitStart(dir: string, opts?: { dirty?: boolean }): Promise<GitStart | null>;
  /** Where git stands, in one `git status` (a turn's end keeps it); null outside a repository. */
  gitMark(dir: string): Promise<GitMark | null>;
  /** Whose work the worktree holds: the email git makes commits with there (the environment's first), null: none. */
  owner(dir: string): Promise<string | null>;
  /** The email git's mailmap at `dir` maps `email` to (a person's email now for one used before); null: cannot tell. */
  mailmap(dir: string, email: string): Promise<string | null>;
  /** The git state now; with the workflow's start, the commits made since it too (null: no workflow to measure from). */
  captureGitState(dir: string, start: WorkSpan | null): Promise<GitCapture>;
  /** The commits HEAD's history gained since a snapshot whose HEAD was `since.commit` (read as the capture reads them). */
  commitsSince(dir: string, since: { commit: string; at: string }): Promise<WorkCommits>;
  /** Whether `branch` is a local branch of the repository at `dir`; null when git cannot tell. */
  hasBranch(dir: string, branch: string): Promise<boolean | null>;
  /** Whether `commit` is in the history of `of` (HEAD by default); null when git does not know the commit. */
  isAncestor(dir: string, commit: string, of?: string): Promise<boolean | null>;
  /** Whether the folder of a worktree is gone (removed with `git worktree remove`, or deleted). */
  worktreeGone(dir: string): Promise<boolean>;
  /** Which of `commits` the repository at `dir` holds; null when git cannot tell. */
  knownCommits(dir: string, commits: readonly string[]): Promise<string[] | null>;
  /** What a checkpoint restore would do (nothing is changed); `inspectOnly` plans even over a dirty tree. */
  planRestore(
    worktree: string,
    target: RestoreTarget,
    opts?: { stash?: boolean; force?: boolean; exclude?: string[]; inspectOnly?: boolean },
  ): Promise<RestorePlan>;
  applyRestore(plan: RestorePlan): Promise<{ done: string[] }>;
}

export interface RestoreTarget {
  branch: string | null;
  commit: string;
  label: string;
  /** Names the backup ref: `refs/baton/backup/<workflow>/<at>`. */
  workflowId: string;
  at: Date;
}

export interface RestoreStep {
  args: string[];
  /** The exact command, as a person would type it. */
  command: string;
  /** Keep the uncommitted tracked changes on this ref (`git stash create`, then `git update-ref`). */
  stash_create?: string;
}

export interface RestorePlan {
  worktree: string;
  /** The checkpoint's branch (null when it was taken on a detached HEAD). */
  branch: string | null;
  commit: string;
  current_branch: string | null;
  current_commit: string | null;
  /** Where the branch points now (the commit a restore moves it away from). */
  branch_head: string | null;
  /** Uncommitted files (tracked or not), the run folder excluded. */
  dirty_files: string[];
  /** Those of `dirty_files` git does not track: a forced restore leaves them as they are. */
  untracked_files: string[];
  /** Commits on the branch after the checkpoint: they leave the branch and stay on `backup_ref`. */
  commits_dropped: number;
  dropped_commits: { sha: string; subject: string }[];
  /** What the restore does to each file, from the branch head to the checkpoint (A added, M modified, D deleted). */
  files_changed: { status: string; path: string }[];
  files_changed_count: number;
  /** The branch (or HEAD) would point elsewhere: a restore needs a confirmation. */
  moves_branch: boolean;
  backup_ref: string | null;
  /** With --force: the discarded tracked changes, kept as a stash commit on this ref. */
  worktree_backup_ref: string | null;
  mode: 'clean' | 'stash' | 'force';
  steps: RestoreStep[];
}

export interface ServiceOptions {
  pauseTimeoutMs: number;
  staleAfterMs: number;
  /** Who the commands act as in the event log (`user`, `orchestrator`, `session-3`...). */
  actor?: string;
  now?: () => Date;
  newId?: (prefix: string) => string;
  /** Counts tokens for the context budget (the edges pass the real tokenizer from src/tokens). */
  countTokens?: TokenCounter;
  /** The resume context's token budget (default 4,000). */
  contextBudget?: number;
  /** USD per million input tokens of the agent's model, to price a handover (default: 3, a Sonnet-class model). */
  inputPricePerMTok?: number;
  /**
   * The crash watch: with it, every read of a workflow checks its driver's lease and handles a crashed driver as
   * startup recovery does (the edges' one recipe sets it; tests of the pure use cases leave it out).
   */
  watch?: CrashWatchOptions;
  /** The capacity thresholds usage readings are checked against (`--warn-at`; BATON_CAPACITY_WARN). */
  capacity?: CapacityPolicy;
  /** Each task's agent output in the run folder (`logs/`), written by `baton run`, read by the dashboard. */
  logs?: TaskLogs;
  /**
   * Reads a task log after the fact as `baton run` reads its agent's output live (src/agents): when a crash lost the
   * run, what its agent last said (and the call it was running) is recorded from the log before it is interrupted.
   */
  readAgentOutput?: (output: string, opts: { fromStart: boolean }) => Promise<AgentSignal[]>;
  /**
   * Reads what an agent run of `baton run` did from its whole output, as a transcript's import reads it (one reader):
   * its errors with their fates, its test runs, its decisions, recorded when the run ends. Without it (the pure use
   * cases' tests), a failed tool call is recorded as an open error as it comes.
   */
  readRunWork?: (output: string, state: WorkflowState, taskId: string) => Promise<RecordInput[]>;
  /**
   * Whether the agent of a hooks-followed workflow's open session is gone: the process its hooks ran in (this
   * machine's hook log) exited though no SessionEnd came (a crash, a kill, a closed terminal). Without it, never.
   */
  agentGone?: (state: WorkflowState) => boolean;
  /**
   * Whether the conversation of the agent that follows a workflow through its hooks is still open (true), over
   * (false) or not known (null), as this machine's hooks saw it: a paused workflow goes on in it at the next prompt
   * while it is open, else in a new one. Without it, never known.
   */
  conversationOpen?: (state: WorkflowState) => boolean | null;
  /** The runs folder of a worktree (the run folder mirror's): left alone by a checkpoint restore. */
  runsDirOf?: (worktree: string) => string;
  /**
   * Removes what Baton created for an executor row whose session is over (a Docker container), through the
   * executor of the row's runtime: called when a run ends, by `baton executors stop` and by `cleanup`.
   */
  releaseExecutor?: (row: ExecutorRow) => Promise<void>;
}
