import type { BatonClient, Ref } from '../../client/baton-client.js';
import type { StatusView } from '../../service/index.js';
import { goneAgents, type GoneAgent } from './gone-agents.js';
import {
  readUnread,
  unreadTranscripts,
  type FollowedStatus,
  type UnreadTranscript,
} from './unread-transcripts.js';

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

/**
 * Before a workflow's resume context is compiled, reads what its transcripts gained with no agent at work to read it
 * (`readUnread`: a killed agent's last turn), as the next session start would: the context then holds that work,
 * not what was read before the crash. The one way in for every reader of the context: `baton context`, the server's
 * context route (the dashboard's panel) and the MCP server's `get_resume_context`. Gives the workflow's status as it
 * was found (compile the context of `status.workflow.id`: the workflow read) and what was read, in words.
 */
export async function readBeforeContext(
  client: BatonClient,
  ref: Ref,
  home: string,
): Promise<{ status: StatusView; read: string[] }> {
  const status = await client.status(ref);
  return { status, read: await readUnread(client, status, home) };
}
