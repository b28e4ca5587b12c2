import type { BatonClient, Ref } from '../../client/baton-client.js';
import type { StatusView } from '../../service/index.js';
import { agentInSession } from '../../core/agent-label.js';
import type { NotRead } from '../../core/index.js';
import { goneAgents, isConversationOf, type GoneAgent } from './gone-agents.js';
import {
  goneTranscripts,
  readUnread,
  unreadTranscripts,
  type FollowedStatus,
  type UnreadTranscript,
} from './unread-transcripts.js';

/** An agent gone with no SessionEnd, and whether the workflow's record says it was cut off in the middle of its turn. */
export interface GoneAgentSaid extends GoneAgent {
  /** The workflow's turn under way is its own: it sent no Stop since the last prompt (a crash or a kill mid-turn). */
  cut_off: boolean;
  /**
   * The agent as people are told of it: its name, and the Baton session that followed its conversation when the
   * status names it ("Claude Code, session 3"), as the dashboard names sessions; never an internal id.
   */
  name: string;
}

/** What a status says of the agent sessions its Baton sessions follow (`agent_sessions`), to name a gone agent. */
type Followed = FollowedStatus & {
  turn_under_way: boolean;
  agent_sessions?: { session_number: number; agent: string; session_id: string }[];
};

/** A gone agent's name: its agent's, and the number of the Baton session that followed its conversation. */
const nameOf = (a: GoneAgent, status: Followed): string => {
  const session = status.agent_sessions?.findLast((x) =>
    isConversationOf(a, { name: x.agent, session_id: x.session_id }),
  );
  return agentInSession(a.agent, session?.session_number);
};

/** What the hooks of this machine (`home`'s hook log) say of a workflow's agents beyond what its log holds. */
export interface AgentWatch {
  /** The agents seen running an in-progress workflow that are gone, though no SessionEnd came. */
  gone_agents: GoneAgentSaid[];
  /** Transcripts that hold work Baton has not read, with no agent at work to read them (a size check each). */
  unread_transcripts: UnreadTranscript[];
  /** Transcripts gone (deleted or moved) before Baton read what their conversation held: the briefing lacks it. */
  transcripts_not_read: NotRead[];
}

/**
 * The agents the hooks saw on this machine running an in-progress workflow that are gone, though no SessionEnd came;
 * each cut off in the middle of its turn when the status says a turn is under way (`turn_under_way`) and the agent's
 * last hook was no Stop: the one reading `baton status`, `baton context`, `baton recover` and the dashboard say.
 */
export const goneAgentsOf = (status: Followed, home: string): GoneAgentSaid[] => {
  const w = status.workflow;
  if (w.status !== 'in_progress' || !w.worktree) return [];
  return goneAgents(home, w.worktree, w.id).map((a) => ({
    ...a,
    cut_off: status.turn_under_way === true && !a.turn_ended,
    name: nameOf(a, status),
  }));
};

/** The one reading of both for a workflow's status, for `baton status` and the server's status alike. */
export const watchAgents = (status: Followed, home: string): AgentWatch => ({
  gone_agents: goneAgentsOf(status, home),
  unread_transcripts: unreadTranscripts(status, home),
  transcripts_not_read: goneTranscripts(status, home),
});

/**
 * Before a workflow's resume context is compiled, reads what its transcripts gained with no agent at work to read it
 * (`readUnread`: a killed agent's last turn), as the next session start would: the context then holds that work,
 * not what was read before the crash. The one way in for every reader of the context: `baton context`, the server's
 * context route (the dashboard's panel) and the MCP server's `get_resume_context`. Gives the workflow's status as it
 * was found (compile the context of `status.workflow.id`: the workflow read), what was read, in words, and apart what
 * could not be read (`not_read`: the briefing lacks it).
 */
export async function readBeforeContext(
  client: BatonClient,
  ref: Ref,
  home: string,
): Promise<{ status: StatusView; read: string[]; not_read: NotRead[] }> {
  const status = await client.status(ref);
  const { said, not_read } = await readUnread(client, status, home);
  return { status, read: said, not_read };
}
