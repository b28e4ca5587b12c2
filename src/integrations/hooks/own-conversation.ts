import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { agentProcess, sameProcess } from './agent-process.js';
import { hookLogPath, readHookLog } from './hook-log.js';

/**
 * The workflow of the agent conversation this process runs inside (a `baton` command the agent ran, the MCP server
 * its agent started): the one the hook log of the nearest worktree ties to a transcript whose hooks the same agent
 * process ran, its conversation not ended. Null where none is, where several are, or where processes cannot be read
 * (not Linux). When several workflows are open in a worktree, it is the one meant.
 */
export function conversationWorkflow(home: string, cwd: string): string | null {
  const self = agentProcess();
  if (!self) return null;
  const path = nearestHookLog(home, resolve(cwd));
  if (!path) return null;
  const log = readHookLog(path.file, path.worktree);
  const ids = new Set(
    Object.values(log.transcripts)
      .filter((t) => !t.ended && sameProcess(t.agent_process, self))
      .map((t) => t.workflow_id),
  );
  return ids.size === 1 ? ([...ids][0] ?? null) : null;
}

/** The hook log of the worktree that holds `dir`: the first folder from `dir` up that has one. */
function nearestHookLog(home: string, dir: string): { file: string; worktree: string } | null {
  for (let d = dir; ; d = dirname(d)) {
    const file = hookLogPath(home, d);
    if (existsSync(file)) return { file, worktree: d };
    if (dirname(d) === d) return null;
  }
}
