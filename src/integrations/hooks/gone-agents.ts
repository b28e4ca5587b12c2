import { basename } from 'node:path';
import type { WorkflowState } from '../../core/index.js';
import { followingAgent } from '../../core/agent-turn.js';
import { isRunning, sameProcess, type AgentProcess } from './agent-process.js';
import { hookLogPath, readHookLog, type TranscriptSeen } from './hook-log.js';

/**
 * Why the conversation writing a transcript is over although its SessionEnd never came, or null when that is not
 * known: the agent process that ran its hooks last has exited, or is `self` (the process running this hook), gone on
 * to another conversation. A SessionEnd already ended its session (the workflow knows).
 */
export function overBecause(seen: TranscriptSeen | undefined, self: AgentProcess | null): string | null {
  const proc = seen?.agent_process;
  if (!proc || seen.ended) return null;
  if (sameProcess(proc, self)) return 'its process went on to another conversation';
  return isRunning(proc) === false ? 'its process exited' : null;
}

/** A conversation of a workflow whose agent process, seen by its hooks on this machine, is gone. */
export interface GoneAgent {
  agent: 'claude-code' | 'codex';
  pid: number;
  transcript: string;
  /** Its last hook ended a turn (a Stop): it went between turns, not in the middle of one. */
  turn_ended: boolean;
}

/**
 * The conversations of `workflowId` whose agent process exited although no SessionEnd came (`overBecause`): a crash,
 * a kill, a closed terminal, or a quit that sends none (an older Codex), until a session start goes on from it. Nothing where
 * processes cannot be read (not Linux), nor for a conversation whose hooks recorded no process.
 */
export function goneAgents(home: string, worktree: string, workflowId: string): GoneAgent[] {
  const seen = readHookLog(hookLogPath(home, worktree), worktree).transcripts;
  return Object.entries(seen).flatMap(([transcript, t]) =>
    t.workflow_id === workflowId && t.agent_process && !t.taken_over && overBecause(t, null) !== null
      ? [
          {
            agent: t.source ?? 'claude-code',
            pid: t.agent_process.pid,
            transcript,
            turn_ended: t.turn_ended === true,
          },
        ]
      : [],
  );
}

/**
 * Whether the agent of a workflow's open session is gone (`goneAgents`): an in-progress workflow whose last session,
 * not ended, follows an agent session whose transcript's conversation lost its process.
 */
export function openSessionGone(home: string, s: WorkflowState): boolean {
  const open = s.sessions.at(-1);
  const agent = open?.ended_at === null ? open.agent : null;
  if (s.status !== 'in_progress' || !agent) return false;
  return goneAgents(home, s.worktree, s.id).some((g) => isConversationOf(g, agent));
}

/**
 * Whether the conversation of the agent that follows a workflow (`followingAgent`) is still open, as this machine's
 * hooks saw it: true while no SessionEnd came and the agent process that ran its hooks runs; false once it ended (a
 * SessionEnd), a session start went on from it, or its process exited or went on to another conversation (Codex's
 * `/new`); null when that is not known (its hooks recorded no process, as where processes cannot be seen, or ran on
 * another machine). A pause ends the Baton session, not the conversation: how the person goes on depends on it.
 */
export function conversationOpen(home: string, s: WorkflowState): boolean | null {
  const agent = followingAgent(s);
  if (!agent) return null;
  const seen = Object.entries(readHookLog(hookLogPath(home, s.worktree), s.worktree).transcripts);
  const mine = seen.find(
    ([path, t]) => (t.source ?? 'claude-code') === agent.name && basename(path).includes(agent.session_id),
  )?.[1];
  if (!mine) return null;
  if (mine.ended || mine.taken_over || mine.workflow_id !== s.id) return false;
  const proc = mine.agent_process;
  if (!proc) return null;
  // the same process ran a later conversation's hooks: it went on to that one
  const movedOn = seen.some(([, t]) => t !== mine && sameProcess(t.agent_process, proc) && t.at > mine.at);
  return movedOn ? false : isRunning(proc);
}

/** Whether a gone agent's conversation is the agent session given: its transcript's file is named after it. */
export const isConversationOf = (g: GoneAgent, agent: { name: string; session_id: string }): boolean =>
  g.agent === agent.name && basename(g.transcript).includes(agent.session_id);

/**
 * The conversation a Codex `/clear` ended where no process can be seen (macOS; Codex sends no SessionEnd for it, while
 * Claude Code's SessionEnd says it): of Codex, between turns (its last hook a Stop: the user typed `/clear` at its
 * prompt), the one whose rollout was written last; null when processes are seen (`overBecause` decides) or none is.
 */
export function clearedBy(
  transcripts: Record<string, TranscriptSeen>,
  start: { agent: string; source: string | null; transcript: string | null },
  self: AgentProcess | null,
  writtenAt: (path: string) => number | null,
): string | null {
  if (start.source !== 'clear' || start.agent !== 'codex' || self !== null) return null;
  const between = Object.entries(transcripts).flatMap(([path, t]) => {
    const at = writtenAt(path);
    const open = t.source === 'codex' && t.turn_ended && !t.ended && !t.agent_process;
    return path !== start.transcript && open && at !== null ? [{ path, at }] : [];
  });
  return between.sort((a, b) => b.at - a.at)[0]?.path ?? null;
}
