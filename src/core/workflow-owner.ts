/**
 * Whether a workflow is the work of `owner` (the email git makes commits with in its worktree): on a database a team
 * shares, two people's clones at one path (devcontainers' `/workspaces/<repo>`) are told apart by it. A workflow made
 * without one (none was set, or it is older than owners) is anyone's. A worktree without one (null) is no one's in
 * particular: it is not taken for the owner of someone's workflow, so a conversation there never joins another
 * person's work unknowingly.
 */
export const ownedBy = (w: { owner?: string | null | undefined }, owner: string | null): boolean =>
  !w.owner || w.owner === owner;

/** What to do where no git identity is set, said wherever Baton needs one to tell whose work is whose. */
export const SET_IDENTITY =
  'set yours with `git config user.email <you@example.com>` (or GIT_AUTHOR_EMAIL in the environment)';
