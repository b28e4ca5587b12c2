import type { WorkflowState } from './schemas/state.js';

/**
 * Whether a workflow is the work of `owner` (git's `user.email` in its worktree): on a database a team shares, two
 * people's clones at one path (devcontainers' `/workspaces/<repo>`) are told apart by it. A workflow made without one
 * (none was set, or it is older than owners) is anyone's; so is every workflow to a worktree without one.
 */
export const ownedBy = (w: WorkflowState, owner: string | null): boolean =>
  !owner || !w.owner || w.owner === owner;
