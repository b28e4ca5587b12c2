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

/**
 * Why a teammate's checkpoint is not restored from here (`from`: `this clone`, `this server`), and what they run
 * where: its git steps run at their worktree's path on this machine, which holds their clone or another person's at that
 * path (devcontainers'), never the workflow's own to move. Said before anything is planned or changed.
 */
export function theirCheckpointWords(
  w: { id: string; owner: string; worktree: string },
  name: string | null,
  from: string,
): string {
  const cp = name ? `its checkpoint ${name}` : 'its latest checkpoint';
  return `${w.id} is ${w.owner}'s: ${cp} is restored in their worktree ${w.worktree}, not from ${from} (its git steps would move the branch and files of whatever clone is at that path here); nothing was changed. ${w.owner} runs \`baton recover -w ${w.id}${name ? ` --checkpoint ${name}` : ' --option checkpoint'}\` in ${w.worktree}`;
}

/**
 * Why a teammate's worktree's git state is not read where the reader is (the note of the git capture a resume, a
 * recovery and the recovery options use instead): the person asking (`asker`, the identity a CLI sends a server) is
 * not its owner, or, asked by no one in particular, the clone at their worktree's path on this machine works under
 * another git identity (devcontainers' one path, another person's clone), so its branch and files are not theirs.
 */
export const theirGitNote = (w: { owner: string; worktree: string }, asker?: string | null): string =>
  asker
    ? `${w.worktree} is ${w.owner}'s worktree, not yours (${asker}): its git state is read only in their clone`
    : `${w.worktree} is ${w.owner}'s worktree, and the clone at that path on this machine works under another git identity: its git state is read only in their clone`;

/**
 * What a checkpoint option of a teammate's workflow would change in git, said instead of a plan read from the wrong
 * clone: where it is done and by whom, and what puts back the records alone from anywhere else.
 */
export const theirRestoreNote = (w: { id: string; owner: string; worktree: string }): string =>
  `the branch and files go back only in ${w.owner}'s worktree ${w.worktree} (\`baton recover -w ${w.id} --option checkpoint\` run there); elsewhere, \`--state-only --theirs\` puts back the records alone`;
