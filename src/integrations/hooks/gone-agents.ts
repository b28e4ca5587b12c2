import { isRunning } from './agent-process.js';
import { hookLogPath, readHookLog } from './hook-log.js';

/** A conversation of a workflow whose agent process, seen by its hooks on this machine, is gone. */
export interface GoneAgent {
  agent: 'claude-code' | 'codex';
  pid: number;
  transcript: string;
}

/**
 * The conversations of `workflowId` whose agent process (recorded by their last hook, Linux) no longer runs although
 * no SessionEnd came: a crash, a kill, a closed terminal, or a quit that sends none (Codex). Nothing where processes
 * cannot be read, for a conversation whose hooks recorded no process, or one that ended.
 */
export function goneAgents(home: string, worktree: string, workflowId: string): GoneAgent[] {
  const seen = readHookLog(hookLogPath(home, worktree), worktree).transcripts;
  return Object.entries(seen).flatMap(([transcript, t]) =>
    t.workflow_id === workflowId && !t.ended && t.agent_process && isRunning(t.agent_process) === false
      ? [{ agent: t.source ?? 'claude-code', pid: t.agent_process.pid, transcript }]
      : [],
  );
}
