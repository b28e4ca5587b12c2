import type { GitCapture, TokenCounter } from '../core/index.js';

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
}
