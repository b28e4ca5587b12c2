import type { ToolOutcome } from './call-text.js';

/** An option's value as a shell word: `x`, `"a b"`, `'a b'`, `user.name="A B"`. */
export const gitWord = `(?:"[^"]*"|'[^']*'|[^\\s"'])+`;

/** A git command of this verb (a regular expression's source), git's own options before it (`-C dir`, `-c k=v`). */
export const gitCommand = (verb: string) =>
  new RegExp(`\\bgit\\s+(?:-[Cc]\\s+${gitWord}\\s+|--?[\\w-]+(?:=${gitWord})?\\s+)*${verb}\\b`);

/** A command that makes commits: `git commit`, `git cherry-pick`, `git revert`. */
export const committing = gitCommand('(?:commit|cherry-pick|revert)');
/** `git commit --amend`: it replaces the branch's last commit. */
export const amending = new RegExp(`${gitCommand('commit').source}[^;&|]*\\s--amend\\b`);

/**
 * git's line for a commit: `[branch hash] subject`, `[branch (root-commit) hash]`, `[detached HEAD hash]`, in any
 * language git speaks (`[main (Basis-Commit) hash]`, `[HEAD détachée hash]`): a branch name has no spaces, so
 * anything with one is a detached HEAD. SHA-256 repositories print longer hashes.
 */
const commitLine = /^\[([^\]\n]+?)(?: ?[(（][^)）\n]+[)）])? ([0-9a-f]{7,64})\] (.+)$/gm;

/** The commits git's lines in a command's output say it made, in order: each once, on its branch (null: detached). */
export function printedCommits(output: string): { branch: string | null; hash: string; subject: string }[] {
  const out: { branch: string | null; hash: string; subject: string }[] = [];
  for (const m of output.matchAll(commitLine)) {
    const [, branch, hash, subject] = m;
    if (!hash || !subject || out.some((c) => c.hash === hash)) continue;
    out.push({ branch: branch && !/\s/.test(branch) ? branch : null, hash, subject: subject.trim() });
  }
  return out;
}

/**
 * The first line of the message a `git commit` command gives it: `-m "..."`, `-m '...'`, or a heredoc (`-F - <<'EOF'`,
 * `-m "$(cat <<'EOF'`). Null for a message from an editor or a file.
 */
export function commitSubject(command: string): string | null {
  // `-m`, alone or last of short flags run together (`-qm`, `-am`)
  const inline = /\bgit\s+commit\b[^\n]*?\s-[a-zA-Z]*m\s*(?:"([^"$`\\]+)"|'([^']+)')/.exec(command);
  const heredoc =
    /\bgit\s+commit\b[^\n]*?\s(?:-F\s*-|--file[= ]-|-m\s*"\$\(cat)[^\n]*<<-?\s*['"]?\w+['"]?[^\n]*\n([^\n]*)/.exec(
      command,
    );
  const subject = (inline?.[1] ?? inline?.[2] ?? heredoc?.[1] ?? '').split('\n')[0]?.trim();
  return subject || null;
}

/** The commits a `git log` / `git show` printed, oneline (`hash subject`) or in full (`commit <hash>`, its subject indented). */
export function loggedCommits(output: string): { hash: string; subject: string }[] {
  const out: { hash: string; subject: string }[] = [];
  const lines = output.split('\n');
  lines.forEach((line, i) => {
    const full = /^commit ([0-9a-f]{7,64})\b/.exec(line);
    if (full?.[1]) {
      const subject = lines.slice(i + 1, i + 8).find((l) => /^ {4}\S/.test(l));
      if (subject) out.push({ hash: full[1], subject: subject.trim() });
      return;
    }
    const oneline = /^([0-9a-f]{7,64}) (.+)$/.exec(line.trim());
    if (oneline?.[1] && oneline[2]) out.push({ hash: oneline[1], subject: oneline[2].trim() });
  });
  return out;
}

/**
 * A commit made without git's `[branch hash] subject` line (`git commit -q`) and then shown by the same command: by
 * `git log` or `git show` (oneline or in full) printing a commit with the commit's own subject, or by `&& git rev-parse
 * --short HEAD` printing the hash alone. An older commit the log shows (the commit failed, the log ran anyway) has
 * another subject. Null otherwise.
 */
function quietCommit(command: string, output: string): { hash: string; subject: string } | null {
  const shown = /\bgit\s+commit\b[\s\S]*?\bgit\s+(?:--no-pager\s+)?(log|show|rev-parse)\b/.exec(command);
  const subject = commitSubject(command);
  if (!shown || !subject) return null;
  if (shown[1] !== 'rev-parse') {
    const logged = loggedCommits(output).find((c) => c.subject === subject);
    return logged ? { hash: logged.hash, subject } : null;
  }
  // a hash alone says nothing of which commit it is: only right after a commit that succeeded (`&&`)
  if (!/\bgit\s+commit\b[^;|\n]*&&\s*git\s+rev-parse\b/.test(command)) return null;
  const hash = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^[0-9a-f]{7,64}$/.test(l));
  return hash ? { hash, subject } : null;
}

/** A commit a call made: on its branch (null: detached, or not said), and whether it replaced the branch's last one. */
export interface MadeCommit {
  hash: string;
  subject: string;
  branch: string | null;
  /** `git commit --amend`: it replaced the branch's last commit. */
  amends: boolean;
}

/**
 * The commits one call made, in order: a commit needs a `git commit` (cherry-pick, revert) in the command and git's
 * `[branch hash] subject` line in its output (a failed call's too: a later step failing made the commit no less),
 * so a program that prints such lines (a test of a git tool) is not taken for one; or, without that line, a quiet
 * commit the same command showed (quietCommit: only a call that succeeded).
 */
export function madeCommits(call: ToolOutcome): MadeCommit[] {
  const all = call.commands.join(' ; ');
  if (!committing.test(all)) return [];
  const printed = printedCommits(call.output);
  if (printed.length) {
    const amends = amending.test(all);
    return printed.map((c) => ({ ...c, amends }));
  }
  const quiet = call.failed ? null : quietCommit(all, call.output);
  return quiet ? [{ ...quiet, branch: null, amends: false }] : [];
}
