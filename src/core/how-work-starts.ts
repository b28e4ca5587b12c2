import { agentLabel } from './agent-label.js';

/**
 * What the files of the machine a command runs on say of a worktree's set-up: the agents whose hooks (or plugin) call
 * Baton there (`baton init` ran, or `--user`, or the Claude Code plugin), and whether such a hook makes a workflow of a
 * session that has none (auto_track). Read by the CLI; a server cannot see them.
 */
export interface WorktreeSetup {
  followedBy: string[];
  autoTrack: boolean;
  /**
   * The repository's other worktrees `baton init` set up, when it did not set up this one (a worktree added after it
   * ran: its files are not committed, so this one has none).
   */
  setUpElsewhere?: string[];
}

/**
 * How work becomes a workflow in a folder that has none, for the message that says it has none. `setup` null: the
 * caller cannot see the folder's files (a server, the MCP server), so the words hold whether `baton init` ran or not.
 */
export function howWorkStarts(
  place: { worktree: string; repository: boolean },
  setup: WorktreeSetup | null,
): string {
  // Baton follows git worktrees: outside one, `baton init` refuses, so it is not offered
  if (!place.repository)
    return `${place.worktree} is not a git repository: agent sessions are followed in one (\`git init\`, then \`baton init\`), or create a workflow here with \`baton create\``;
  if (!setup)
    return 'after `baton init` (`baton doctor` says whether it set this repository up) the next agent session here creates one, or create one with `baton create`';
  if (!setup.followedBy.length && setup.setUpElsewhere?.length)
    return `Baton follows this repository in ${setup.setUpElsewhere.join(', ')}, not in this worktree (\`baton init\` ran before it was added, and the files it writes are not committed): run \`baton init\`, which sets up every worktree of the repository, and the next Claude Code or Codex session started here becomes a workflow (or create one by hand with \`baton create\`)`;
  if (!setup.followedBy.length)
    return 'Baton does not follow this repository yet: run `baton init` here, and the next Claude Code or Codex session started here becomes a workflow (or create one by hand with `baton create`)';
  const agents = setup.followedBy.map(agentLabel).join(' or ');
  return setup.autoTrack
    ? `Baton follows this repository: start ${agents} here as usual and its session becomes a workflow (\`baton doctor\` shows what the hooks did)`
    : `Baton's hooks are wired here for ${agents}, but auto_track is off, so they follow only workflows made with \`baton create\` (set auto_track to on in baton.config.json or BATON_AUTO_TRACK for every session to become one)`;
}
