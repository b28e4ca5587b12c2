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

/** Options of `git push` that take a value in the next word (`--repo origin`, `-o ci.skip`). */
const valued = /^(?:--repo|--receive-pack|--exec|-o|--push-option)$/;

/**
 * What a quiet push (`git push -q origin main`, whose output names no ref) did, read from its words: the ref it pushed
 * (`main -> main`, `HEAD -> release` for `HEAD:release`) and whether it forced it (`--force`, `-f`, `+main`), or the
 * remote branch it deleted (`--delete feature`, `:feature`). Null when its words do not tell: no refspec (the branch's
 * upstream, as configured), a word the shell expands (`"$(git branch --show-current)"`), or a bare `HEAD`.
 */
function pushedByWords(command: string): { ref: string; force: boolean } | { deleted: string } | null {
  const at = pushing.exec(command);
  if (!at) return null;
  const words = command
    .slice(at.index + at[0].length)
    .split(/\s*(?:&&|\|\||[;|\n])/)[0]!
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const args: string[] = [];
  let force = false;
  let deleting = false;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i]!;
    if (/^\d*[<>]/.test(w)) break;
    if (w.startsWith('-')) {
      if (valued.test(w)) i += 1;
      if (/^(?:--force(?:-with-lease(?:=.*)?|-if-includes)?|-f)$/.test(w)) force = true;
      if (/^(?:--delete|-d)$/.test(w)) deleting = true;
      continue;
    }
    args.push(w);
  }
  const spec = args[1];
  if (!spec || /[$`"'\\*]/.test(spec)) return null;
  if (deleting) return { deleted: spec };
  if (spec.startsWith(':')) return spec.length > 1 ? { deleted: spec.slice(1) } : null;
  const forced = force || spec.startsWith('+');
  const [src, dst] = spec.replace(/^\+/, '').split(':');
  if (!src || (src === 'HEAD' && !dst)) return null;
  return { ref: `${src} -> ${dst ?? src}`, force: forced };
}

/**
 * What a call pushed, as the import of a transcript says it: `pushed main -> main (up to abc1234)`, `force-pushed fix
 * -> fix (283c50a, replacing 00fb9c4)`, `deleted the remote branch x`; when git's output names no ref (`git push -q`),
 * the ref its words name, else the push command itself. Nothing for a failed or rejected push, a dry run, or one that
 * found everything up to date.
 */
export function pushSummaries(call: ToolOutcome): string[] {
  const all = call.commands.join(' ; ');
  const output = call.output;
  if (!pushing.test(all) || call.failed || pushRejected.test(output) || dryRun.test(all)) return [];
  const ref = pushedRef.exec(output);
  // a chain may delete one remote branch and push another (a rename): both are said
  const deleted = [...output.matchAll(/^[ \t]*-[ \t]*\[deleted\]\s+(\S+)/gm)].map((m) => m[1]);
  const command = call.commands.find((c) => pushing.test(c));
  // git said nothing of what it pushed (`-q`): the words of the command say it, else the command itself
  const said = ref || deleted.length || !command ? null : pushedByWords(command);
  if (said && 'deleted' in said) return [`deleted the remote branch ${said.deleted}`];
  const target = ref
    ? `${ref[4]} -> ${ref[5]}`
    : (said?.ref ?? command?.match(/\bgit\s+push\b[^;&|\n]*/)?.[0].trim() ?? 'git push');
  const forced = ref ? !!ref[1] : said?.force === true;
  // where the remote now is: each push of a branch is its own (a force push after an amend is not the first)
  const moved = ref?.[3] ? (ref[1] ? ` (${ref[3]}, replacing ${ref[2]})` : ` (up to ${ref[3]})`) : '';
  const out = deleted.map((branch) => `deleted the remote branch ${branch}`);
  // "Everything up-to-date": the remote had it all, nothing was pushed
  const nothing = !ref && (deleted.length > 0 || /^Everything up-to-date\s*$/m.test(output));
  if (!nothing) out.push(`${forced ? 'force-pushed' : 'pushed'} ${target}${moved}`);
  return out;
}
