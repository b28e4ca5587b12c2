import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { HookRecord } from '../hooks/hook-log.js';
import { homesOf, initCommand } from './agent-files.js';
import { commandLine, installedCommand } from './hook-command.js';

/** Time for Claude Code to write a transcript line beside the settings file being written: not a session since. */
const SLACK_MS = 2000;

/**
 * The folder Claude Code keeps a worktree's transcripts in: its path with every character but a letter or a digit
 * made a dash (`/home/me/my.app` is `-home-me-my-app`), under `projects/` of its folder (`CLAUDE_CONFIG_DIR`).
 */
export const claudeProjectDir = (root: string, env: NodeJS.ProcessEnv) =>
  join(homesOf(env).claudeDir, 'projects', root.replace(/[^a-zA-Z0-9]/g, '-'));

/** The transcript in `dir` Claude Code wrote last, and when; null when it holds none. */
function newestIn(dir: string): { path: string; at: number } | null {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return null;
  }
  let best: { path: string; at: number } | null = null;
  for (const n of names) {
    try {
      const at = statSync(join(dir, n)).mtimeMs;
      if (!best || at > best.at) best = { path: join(dir, n), at };
    } catch {
      // gone since the listing
    }
  }
  return best;
}

/** The folder a transcript's session ran in, from the first of its opening lines that says (`cwd`); else null. */
function cwdOf(path: string): string | null {
  const head = Buffer.alloc(64 * 1024);
  let read: number;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  for (const line of head.subarray(0, read).toString('utf8').split('\n')) {
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
      if (typeof cwd === 'string') return cwd;
    } catch {
      // a line cut by the head's end, or not JSON
    }
  }
  return null;
}

/**
 * The transcript of this worktree Claude Code wrote last, and when; null when it wrote none. A Claude Code started in
 * a subfolder keeps its sessions in that folder's own dashed name, which begins with the worktree's: one of those
 * counts when its session ran inside the worktree (`/repo-v2`'s name begins with `/repo`'s as `/repo/web`'s does).
 */
function newestTranscript(root: string, env: NodeJS.ProcessEnv): { path: string; at: number } | null {
  const own = claudeProjectDir(root, env);
  const projects = join(own, '..');
  const prefix = `${own.slice(projects.length + 1)}-`;
  let subfolders: string[] = [];
  try {
    subfolders = readdirSync(projects).filter((n) => n.startsWith(prefix));
  } catch {
    // no projects folder: Claude Code never ran here
  }
  let best = newestIn(own);
  for (const name of subfolders) {
    const last = newestIn(join(projects, name));
    if (!last || (best && last.at <= best.at)) continue;
    const cwd = cwdOf(last.path);
    const inside = cwd !== null && relative(root, cwd);
    if (typeof inside === 'string' && inside && !inside.startsWith('..') && !isAbsolute(inside)) best = last;
  }
  return best;
}

/**
 * Claude Code sessions ran in this worktree while Baton's hooks were wired, and none of those hooks ever reached
 * Baton: the hooks never ran (a Claude Code started before `baton init` keeps the hooks it started with; one older
 * than an event the file names skips it whole) or they found no `baton` (an agent started from an IDE or a desktop
 * app may run them without the terminal's PATH: the session start's message said so in the session alone). Without
 * this, doctor said "No hook has run here yet" and `ok`. `hookFiles`: the settings files that hold Baton's Claude Code
 * hooks; a transcript written after the oldest of them changed last had them in place. Only where no Claude Code hook
 * ever ran here: Claude Code also writes to old transcripts without a session (their summaries).
 */
export function unheardClaudeHooks(
  root: string,
  env: NodeJS.ProcessEnv,
  lastHooks: Record<string, HookRecord>,
  hookFiles: string[],
  /** Claude Code's version, when `claude --version` answered: `baton init` left out the events it does not know. */
  version: string | null,
): string | null {
  if (!hookFiles.length || Object.values(lastHooks).some((r) => r.agent === 'claude-code')) return null;
  const wiredAt = Math.min(
    ...hookFiles.map((f) => {
      try {
        return statSync(f).mtimeMs;
      } catch {
        return Infinity;
      }
    }),
  );
  const last = newestTranscript(root, env);
  if (!last || !Number.isFinite(wiredAt) || last.at <= wiredAt + SLACK_MS) return null;
  const installed = installedCommand();
  const rewrite = `${initCommand('local', 'claude-code')} --command "${installed ? commandLine(installed, []) : '<node> <path of bin/baton.js>'}"`;
  return `Claude Code wrote ${last.path} at ${new Date(last.at).toISOString()}, after Baton's hooks were set up in ${hookFiles.join(', ')}, but none of them has reached Baton here, so that session was not recorded: a Claude Code started before \`baton init\` runs the hooks it started with (quit it and start it again); one started from an IDE or a desktop app may not find \`baton\` on its PATH (run \`${rewrite}\`, which names Baton by its path)${version ? '' : '; a Claude Code older than 2.1.78 (`claude --version`) skips the settings file whole, which names StopFailure (update it)'}`;
}
