import type { GitCapture } from '../core/index.js';

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
}
