import type { ToolOutcome } from './call-text.js';
import { gitCommand as git, gitWord as word } from './git-commits.js';

/** `git checkout -b name`, `git switch -c name` (`-B`, `-C`, `--create`, `--force-create`): the branch it makes. */
const newBranch = new RegExp(
  `${git('(?:checkout|switch)').source}[^;&|\\n]*?\\s(?:-[bBcC]|--(?:force-)?create)\\s+(${word})`,
  'g',
);
/** `git worktree add [options] <path> [<commit-ish>]`: its words. */
const worktreeAdd = new RegExp(`${git('worktree').source}\\s+add\\s+([^;&|\\n]*)`, 'g');
/** A word as git gets it: its quotes taken off. */
const bare = (w: string) => w.replace(/^(["'])(.*)\1$/, '$2');

/**
 * What a `git worktree add` made: the folder, and the branch it made there (`-b`, `-B`, `--orphan`) or checked out.
 * Options with a value of their own (`--reason`) do not name the folder.
 */
function worktreeMade(args: string): string | null {
  const words = (args.match(new RegExp(word, 'g')) ?? []).map(bare);
  let branch: string | null = null;
  const rest: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] as string;
    if (w === '-b' || w === '-B' || w === '--orphan') branch = words[(i += 1)] ?? null;
    else if (w === '--reason') i += 1;
    else if (!w.startsWith('-') && !/^\d*[<>]/.test(w)) rest.push(w);
  }
  const [path, commitish] = rest;
  if (!path) return null;
  const on = branch ? ` on the new branch ${branch}` : commitish ? ` at ${commitish}` : '';
  return `added the worktree ${path}${on}`;
}

/** The folder an Already Done line says a `git worktree add` made (`added the worktree ../w on the new branch x`). */
export const worktreeAdded = (summary: string): string | null =>
  /^added the worktree (.+?)(?: on the new branch \S+| at \S+)?$/.exec(summary)?.[1] ?? null;

/** `git worktree remove [--force] <path>`: the worktree it removes. */
const worktreeRemove = new RegExp(
  `${git('worktree').source}\\s+remove\\s+(?:(?:-f|--force)\\s+)*(?!\\d*[<>])(${word})`,
  'g',
);
/** `git branch -d|-D|--delete <name>...`: the local branches it deletes. */
const branchDelete = new RegExp(
  `${git('branch').source}\\s+(?:-d|-D|--delete)(?:\\s+(?:-f|--force))?((?:\\s+(?!\\d*[<>]|&&|;|\\|)${word})+)`,
  'g',
);

/** Branches and worktrees a command line makes or removes, as Already Done says them (the last word on each is its state). */
function branchesIn(command: string): string[] {
  return [
    ...[...command.matchAll(newBranch)].map((m) => `created the branch ${bare(m[1] ?? '')}`),
    ...[...command.matchAll(worktreeAdd)].flatMap((m) => worktreeMade(m[1] ?? '') ?? []),
    ...[...command.matchAll(worktreeRemove)].map((m) => `removed the worktree ${bare(m[1] ?? '')}`),
    ...[...command.matchAll(branchDelete)].flatMap((m) =>
      (m[1] ?? '')
        .trim()
        .split(/\s+/)
        .map((b) => `deleted the branch ${bare(b)}`),
    ),
  ];
}

/**
 * The branches and worktrees a call made or removed, as Already Done says them (`created the branch x`, `added the
 * worktree ../w on the new branch x`, `removed the worktree ../w`, `deleted the branch x`): not when it failed, nor
 * when git refused (creating one again: `fatal: a branch named 'x' already exists`).
 */
export function branchesMade(call: ToolOutcome): string[] {
  if (call.failed || /^fatal:/m.test(call.output)) return [];
  return branchesIn(call.commands.join(' ; '));
}
