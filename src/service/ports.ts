import type { GitCapture, TokenCounter } from '../core/index.js';
import type { ExecutorRow } from '../storage/executor-registry.js';

/** What the service needs from git (src/git implements it with the real binary). */
export interface GitPort {
  resolveWorktree(dir: string): Promise<string>;
  gitStart(dir: string): Promise<{ branch: string | null; commit: string | null } | null>;
  captureGitState(dir: string, startCommit: string | null): Promise<GitCapture>;
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
   * Removes what Baton created for an executor row whose session is over (a Docker container), through the
   * executor of the row's runtime: called when a run ends, by `baton executors stop` and by `cleanup`.
   */
  releaseExecutor?: (row: ExecutorRow) => Promise<void>;
}
