import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileSlice } from './file-slice.js';

/** How recently a sub-agent's file must have been written to hold the call a hook just reported. */
const RECENT_MS = 10 * 60_000;
/** How much of each file's end is read: the call was written moments ago, at the end. */
const TAIL_BYTES = 256 * 1024;

/**
 * The sub-agent file of a Claude Code session that holds the tool call `toolUseId`, or null. A Claude Code whose tool
 * hooks carry no `agent_id` (anthropics/claude-code #22348, #40140) reports a sub-agent's calls with the main
 * session's id and transcript: the call is then only in the sub-agent's own file, `<session>/subagents/agent-*.jsonl`
 * beside the transcript (older versions: `agent-*.jsonl` in the transcript's folder). A call the session's own
 * transcript holds is none. Only files written in the last minutes are read, each its last 256 KB.
 */
export function subAgentFileOf(transcriptPath: string, toolUseId: string): string | null {
  const folder = dirname(transcriptPath);
  const session = basename(transcriptPath, '.jsonl');
  const candidates = [
    ...agentFiles(join(folder, session, 'subagents')),
    ...agentFiles(folder).filter((f) => f !== transcriptPath),
  ];
  const now = Date.now();
  const needle = `"${toolUseId}"`;
  // the session's own call (an assistant line of its transcript holds it, at its end) is no sub-agent's; a progress
  // line that relays a sub-agent's call (Claude Code 2.1) names its id too, and does not count
  try {
    const own = tail(transcriptPath, statSync(transcriptPath).size)
      .split('\n')
      .some((l) => l.includes(needle) && ownCall(l));
    if (own) return null;
  } catch {
    // no transcript yet: the sub-agents' files decide
  }
  for (const file of candidates) {
    try {
      const { size, mtimeMs } = statSync(file);
      if (now - mtimeMs > RECENT_MS) continue;
      if (tail(file, size).includes(needle)) return file;
    } catch {
      // gone since it was listed: not the file
    }
  }
  return null;
}

/**
 * Whether a transcript is a Claude Code sub-agent's own file (`<session>/subagents/agent-*.jsonl`): the hooks read
 * only its test runs and file changes, at the session's Stop (`subAgentWork`), never as a conversation of its own.
 */
export const isSubAgentFile = (path: string) => /[\\/]subagents[\\/]agent-[^\\/]+\.jsonl$/.test(path);

/** How recently a sub-agent's file must have been written for a hook to read what it did. */
const WORKED_WITHIN_MS = 24 * 3600_000;

/**
 * The files of the Claude Code session's sub-agents (`<session>/subagents/agent-*.jsonl` beside its transcript)
 * written in the last day: what they did since the hooks last read them is read with the session's turn.
 */
export function subAgentFiles(transcriptPath: string): string[] {
  const folder = join(dirname(transcriptPath), basename(transcriptPath, '.jsonl'), 'subagents');
  const now = Date.now();
  return agentFiles(folder).filter((file) => {
    try {
      return now - statSync(file).mtimeMs <= WORKED_WITHIN_MS;
    } catch {
      return false;
    }
  });
}

const agentFiles = (folder: string): string[] => {
  try {
    return readdirSync(folder)
      .filter((f) => f.startsWith('agent-') && f.endsWith('.jsonl'))
      .map((f) => join(folder, f));
  } catch {
    return [];
  }
};

/** A transcript line that is the session's own assistant message (not a relayed one, not a sub-agent's). */
function ownCall(line: string): boolean {
  try {
    const l = JSON.parse(line) as { type?: unknown; agentId?: unknown; isSidechain?: unknown };
    return l.type === 'assistant' && l.agentId === undefined && l.isSidechain !== true;
  } catch {
    return false;
  }
}

/** The end of a file, at most TAIL_BYTES of it. */
const tail = (file: string, size: number) => fileSlice(file, Math.max(0, size - TAIL_BYTES), size);
