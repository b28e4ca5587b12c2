import { closeSync, openSync, readSync } from 'node:fs';
import { agentArgs, type AgentProcess } from './agent-process.js';

/**
 * Claude Code started with `--resume` or `--continue` fires two SessionStarts: `resume` with the conversation's id,
 * and a spurious `startup` with a new id whose transcript holds nothing (anthropics/claude-code #23932, #24265; no
 * SessionEnd ever comes for it). Followed, that startup would count a session that does not exist, hand the briefing
 * over twice, and, as a fresh start, could complete the workflow the resumed conversation goes on with.
 */

/** The flags that make Claude Code take up an earlier conversation. */
const resumingFlag = /^(?:-r|-c|--resume|--continue|--from-pr)(?:=.*)?$/;

/** Whether the agent was started to take up an earlier conversation (its command line, before a `--`). */
export function launchedToResume(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => resumingFlag.test(a));
}

/** How much of a transcript is read to tell whether it holds a conversation: its first lines say it. */
const HEAD_BYTES = 64 * 1024;

/** Whether the transcript holds a user's or the agent's message (none when it is missing, empty or only snapshots). */
export function holdsConversation(path: string | null): boolean {
  if (!path) return false;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    // a head longer than the buffer: a transcript that long holds something
    if (n === HEAD_BYTES) return true;
    return buf
      .subarray(0, n)
      .toString('utf8')
      .split('\n')
      .some((l) => /"type"\s*:\s*"(?:user|assistant)"/.test(l));
  } finally {
    closeSync(fd);
  }
}

/**
 * Why this SessionStart is Claude Code's spurious one of a resumed launch, or null when it is a start to follow: a
 * `startup` from a Claude Code launched with a resuming flag, whose own transcript holds no conversation.
 */
export function spuriousStartup(
  source: string | null,
  transcriptPath: string | null,
  agent: AgentProcess | null,
): string | null {
  if (source !== 'startup' || !agent) return null;
  const args = agentArgs(agent);
  if (!args || !launchedToResume(args) || holdsConversation(transcriptPath)) return null;
  return 'Claude Code started with --resume/--continue also fires a startup event with a new, empty session (anthropics/claude-code #23932); the resume event beside it is followed';
}
