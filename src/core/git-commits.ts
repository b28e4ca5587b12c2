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
