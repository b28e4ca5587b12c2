import { goneAgents, type GoneAgent } from './gone-agents.js';
import { unreadTranscripts, type FollowedStatus, type UnreadTranscript } from './unread-transcripts.js';

/** What the hooks of this machine (`home`'s hook log) say of a workflow's agents beyond what its log holds. */
export interface AgentWatch {
  /** The agents seen running an in-progress workflow that are gone, though no SessionEnd came. */
  gone_agents: GoneAgent[];
  /** Transcripts that hold work Baton has not read, with no agent at work to read them (a size check each). */
  unread_transcripts: UnreadTranscript[];
}

/** The agents the hooks saw on this machine running an in-progress workflow that are gone, though no SessionEnd came. */
export const goneAgentsOf = (w: FollowedStatus['workflow'], home: string): GoneAgent[] =>
  w.status === 'in_progress' && w.worktree ? goneAgents(home, w.worktree, w.id) : [];

/** The one reading of both for a workflow's status, for `baton status` and the server's status alike. */
export const watchAgents = (status: FollowedStatus, home: string): AgentWatch => ({
  gone_agents: goneAgentsOf(status.workflow, home),
  unread_transcripts: unreadTranscripts(status, home),
});
