import type { ToolOutcome } from './call-text.js';
import { gitCommand, gitWord, loggedCommits } from './git-commits.js';
import { sameHash } from './short-hash.js';

/**
 * Commits that no command of the session printed making, found the way an engineer reading the session finds them: a
 * `git log` of HEAD lists commits above the HEAD an earlier one listed (a script committed quietly, or merged the
 * session's pull request and pulled the merge). Only listings of HEAD's own history count (no ref, path, filter or
 * order that would make their first commit something else than HEAD), and a command that moves HEAD otherwise (a pull,
 * a merge, a checkout, a reset ...) makes the next listing a new starting point, so commits others made are not taken
 * for the session's.
 */

/** Commands that move HEAD to commits the session did not make. */
const movesHead = new RegExp(
  `${gitCommand('(?:pull|merge|rebase|checkout|switch|reset|am|worktree|bisect)').source}|\\bgh\\s+(?:pr|repo)\\s+(?:checkout|sync)\\b`,
);

/** `git log` and its arguments, up to the end of its command (`|`, `;`, `&&`, `||`, a redirection, a closing `)`). */
const logCommand = new RegExp(
  `${gitCommand('log').source}((?:[ \\t]+(?!&&|\\|\\||\\d*[|;&)<>])${gitWord})*)`,
  'g',
);

/** Options that keep a listing's first commit HEAD, in HEAD's order; anything else (a ref, a path, a filter) does not. */
const keepsHead =
  /^(?:--oneline|--pretty=oneline|--format=oneline|-\d+|-n\d*|--max-count=\d+|--stat|--shortstat|--numstat|--name-only|--name-status|--(?:no-)?decorate(?:=\w+)?|--abbrev-commit|--abbrev=\d+|--(?:no-)?color(?:=\w+)?|--date=\S+|--first-parent|--no-patch|-s)$/;

/** Commands that print commits as a log does (`hash subject`). */
const printsCommits = gitCommand('(?:log|show|rev-list|cherry|reflog|shortlog|whatchanged)');

/**
 * The commits a call's `git log` of HEAD printed, newest first; null for a call that listed no such history. Its lines
 * are the first a log printed only if no command before it printed commits, and when other logs follow it, only as
 * many as its count (`-3`) lets it print.
 */
function headListing(call: ToolOutcome): { hash: string; subject: string }[] | null {
  if (call.failed) return null;
  const command = call.commands.join(' ; ');
  const logs = [...command.matchAll(logCommand)];
  const first = logs[0];
  if (!first || printsCommits.test(command.slice(0, first.index))) return null;
  const args = (first[1] ?? '').trim().split(/\s+/).filter(Boolean);
  // `-n 5`: the count is the option's value, not a ref
  const words = args.filter(
    (a, i) => !(/^\d+$/.test(a) && (args[i - 1] === '-n' || args[i - 1] === '--max-count')),
  );
  if (!words.every((a) => keepsHead.test(a))) return null;
  const listed = loggedCommits(call.output);
  if (logs.length === 1) return listed.length ? listed : null;
  const count = countOf(args);
  return count && listed.length ? listed.slice(0, count) : null;
}

/** How many commits a log's options let it print (`-3`, `-n 3`, `-n3`, `--max-count=3`), null for no limit. */
function countOf(args: readonly string[]): number | null {
  for (const [i, a] of args.entries()) {
    const n =
      /^-(\d+)$/.exec(a)?.[1] ??
      /^(?:-n|--max-count=)(\d+)$/.exec(a)?.[1] ??
      (a === '-n' ? args[i + 1] : null);
    if (n && /^\d+$/.test(n)) return Number(n);
  }
  return null;
}

/** Reads the calls in order; `next(call)` answers the commits a listing shows above the HEAD an earlier one showed. */
export function headWatcher(): (call: ToolOutcome) => { hash: string; subject: string }[] {
  let head: string | null = null;
  return (call) => {
    const all = call.commands.join(' ; ');
    if (movesHead.test(all)) head = null;
    const listed = headListing(call);
    if (!listed) return [];
    const before = head;
    head = listed[0]?.hash ?? head;
    if (!before) return [];
    const at = listed.findIndex((c) => sameHash(c.hash, before));
    return at > 0 ? listed.slice(0, at).reverse() : [];
  };
}
