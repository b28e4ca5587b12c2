import type { ToolOutcome } from './call-text.js';
import { gitCommand as git } from './git-commits.js';

const pushing = git('push');
/**
 * The ref a push updated, as git reports it: `main -> main` after `* [new branch]` or `[new tag]`, or after the range
 * it moved (`a1..b2`; `+ a1...b2` forced), whose ends are kept.
 */
const pushedRef =
  /^[ \t]*(?:\*[ \t]*\[new branch\]|(\+[ \t]*)?([0-9a-f]{7,40})\.{2,3}([0-9a-f]{7,40})|\[new tag\])\s+(\S+)\s+->\s+(\S+)/m;
/** A push git refused, in whole or in part. */
const pushRejected = /\[rejected\]|\berror: failed to push|^fatal:/m;
/** `git push --dry-run` / `-n`: says what would be pushed, pushes nothing. */
const dryRun = new RegExp(`${pushing.source}[^;&|\\n]*\\s(?:--dry-run|-n)\\b`);

/**
 * What a call pushed, as the import of a transcript says it: `pushed main -> main (up to abc1234)`, `force-pushed fix
 * -> fix (283c50a, replacing 00fb9c4)`, `deleted the remote branch x`; the push command itself when git's output
 * names no ref. Nothing for a failed or rejected push, a dry run, or one that found everything up to date.
 */
export function pushSummaries(call: ToolOutcome): string[] {
  const all = call.commands.join(' ; ');
  const output = call.output;
  if (!pushing.test(all) || call.failed || pushRejected.test(output) || dryRun.test(all)) return [];
  const ref = pushedRef.exec(output);
  // a chain may delete one remote branch and push another (a rename): both are said
  const deleted = [...output.matchAll(/^[ \t]*-[ \t]*\[deleted\]\s+(\S+)/gm)].map((m) => m[1]);
  const target = ref ? `${ref[4]} -> ${ref[5]}` : (call.commands.find((c) => pushing.test(c)) ?? 'git push');
  // where the remote now is: each push of a branch is its own (a force push after an amend is not the first)
  const moved = ref?.[3] ? (ref[1] ? ` (${ref[3]}, replacing ${ref[2]})` : ` (up to ${ref[3]})`) : '';
  const out = deleted.map((branch) => `deleted the remote branch ${branch}`);
  // "Everything up-to-date": the remote had it all, nothing was pushed
  const nothing = !ref && (deleted.length > 0 || /^Everything up-to-date\s*$/m.test(output));
  if (!nothing) out.push(`${ref?.[1] ? 'force-pushed' : 'pushed'} ${target}${moved}`);
  return out;
}
