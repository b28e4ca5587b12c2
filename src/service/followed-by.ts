import { followingAgent } from '../core/agent-turn.js';
import type { WorkflowState } from '../core/index.js';
import type { ServiceOptions } from './ports.js';

/**
 * The agent whose hooks follow a workflow (`followingAgent`: its name, null when none) and whether its conversation
 * is still open on this machine (`ServiceOptions.conversationOpen`; null: not known, or no agent): how a paused or
 * resumed workflow goes on, said by `baton status`, `baton pause` and `baton resume` alike.
 */
export function followedBy(
  s: WorkflowState,
  options: Pick<ServiceOptions, 'conversationOpen'>,
): { following_agent: string | null; conversation_open: boolean | null } {
  const agent = followingAgent(s);
  return {
    following_agent: agent?.name ?? null,
    conversation_open: agent ? (options.conversationOpen?.(s) ?? null) : null,
  };
}
