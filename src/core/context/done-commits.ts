import { clip } from '../clip.js';
import { sameHash, shortHash } from '../short-hash.js';
import type { GitCommit, GitState } from '../schemas/git-state.js';
import type { SideEffect } from '../schemas/runtime.js';

/** A commit as the done list shows it. */
export interface DoneCommit {
  /** Short (`shortHash`); empty for a commit Baton's runner recorded by its command alone, which git did not confirm. */
  hash: string;
  subject: string;
  task_id: string | null;
  /** Only git has it: no transcript reported it (its tool call never returned, or it was made by hand). */
  git_only?: true;
  /**
   * A reported commit HEAD's history does not hold (reset away, rewritten, or made on a branch since left): the branch
   * checked out (`HEAD's history` when detached) and, as git answered (`off_head`), the branches that hold it (empty:
   * none); null when git was not asked (a snapshot from before it was).
   */
  not_on?: { branch: string; on_branches: string[] | null };
}

export interface DoneCommits {
  commits: DoneCommit[];
  /** Commits made since the workflow began and not listed (git's older ones, and those cut for room). */
  more: number;
  /** The command that lists them all. */
  more_command: string | null;
}

/**
 * A commit side effect read from git's output: `<hash> <subject>` (a runner's records its command when git printed
 * no commit line): commitSummary writes it.
 */
const commitEffect = /^([0-9a-f]{7,40}) (.+)$/;

/** The hash of a commit the transcripts reported (null for a runner's command, or another kind of effect). */
export const reportedHash = (e: SideEffect): string | null =>
  e.kind === 'commit' ? (commitEffect.exec(e.summary)?.[1] ?? null) : null;

interface Reported {
  effect: SideEffect;
  /** The hash the transcript read from git's output; null for a runner's command. */
  hash: string | null;
  subject: string;
}

export const reportedOf = (e: SideEffect): Reported => {
  const m = commitEffect.exec(e.summary);
  return m
    ? { effect: e, hash: m[1] as string, subject: m[2] as string }
    : { effect: e, hash: null, subject: e.summary };
};

/**
 * An amend's note when the commit it replaced was read before the transcript piece that holds it (an earlier turn's,
 * imported before): the commit it replaced is found among those recorded (`amendedEarlier`).
 */
export const AMENDS_EARLIER = '(amends an earlier commit)';

/**
 * A commit as the side-effect ledger says it (`4f021172 Add the parser`), read back by reportedHash: its hash and
 * subject, and for an amend the commit it replaced (`(amends <hash>)`), or AMENDS_EARLIER for one recorded before
 * (`earlier`). The one way a transcript's import, `baton run` and git's own list of a task's commits write one.
 */
export const commitSummary = (hash: string, subject: string, amends?: string): string =>
  `${hash} ${subject}${amends === 'earlier' ? ` ${AMENDS_EARLIER}` : amends ? ` (amends ${amends})` : ''}`;

/** The commit an amend replaced, as its note says it (`(amends <hash>)`), or `earlier` (AMENDS_EARLIER). */
export const amendNote = / \(amends ([0-9a-f]{7,40}|an earlier commit)\)$/;
/** The note names the commit (not AMENDS_EARLIER). */
const namesCommit = (said: string) => /^[0-9a-f]+$/.test(said);

/** A subject's note of the commit an amend replaced, its hash as people are shown one. */
const shortAmends = (subject: string, earlier?: string) =>
  subject.replace(amendNote, (whole, hash: string) =>
    namesCommit(hash) ? ` (amends ${shortHash(hash)})` : earlier ? ` (amends ${shortHash(earlier)})` : whole,
  );

/**
 * A runner's commit command that made this commit: its message (after `-m`, quoted or not, or a line of a here-doc)
 * is the subject. A short subject must be the whole message, so `-am x` is not read as every subject holding an x.
 */
export function commandMade(command: string, subject: string): boolean {
  const s = subject.trim();
  if (!s) return false;
  if (s.length >= 8 && command.includes(s)) return true;
  const messages = [...command.matchAll(/(?:-m|--message)[=\s]*(?:"([^"]*)"|'([^']*)'|(\S+))/g)].map((m) =>
    (m[1] ?? m[2] ?? m[3] ?? '').split('\n')[0]?.trim(),
  );
  return messages.includes(s) || command.split('\n').some((line) => line.trim() === s);
}

/**
 * The pull request's number when `merged` is `subject` as GitHub merges a pull request by squash or rebase (the
 * subject, then ` (#123)`); null otherwise.
 */
const prMergeOf = (merged: string, subject: string): string | null => {
  const m = / \(#(\d+)\)$/.exec(merged);
  return m && merged.slice(0, m.index) === subject ? (m[1] as string) : null;
};

/** What a reported commit git's list does not hold is now: its note, where it goes, and whether it left the branch. */
interface Fate {
  note: string;
  at: number;
  not_on?: DoneCommit['not_on'];
}

/**
 * A reported commit not on the branch checked out (`where`), and where git says it is (`branches`: those that hold
 * it, none: on no branch; null: git was not asked): `not on main now: only on branch save-parser`.
 */
export function offBranchWords(where: string, branches: readonly string[] | null): string {
  const now = `not on ${where} now`;
  if (branches === null) return now;
  if (branches.length === 0) return `${now}: on no branch, reset away or rewritten`;
  const shown = branches.slice(0, 3).join(', ');
  const more = branches.length > 3 ? ` and ${branches.length - 3} more` : '';
  return `${now}: only on ${branches.length > 1 ? 'branches' : 'branch'} ${shown}${more}`;
}

/**
 * The commits already done, each once: the ones the transcripts reported (in their order) and the ones git has on
 * HEAD's history since the workflow began (the capture's `work_commits`) that no transcript reported and this worktree
 * made (not `elsewhere`: another worktree's commits on a branch checked out here are not this workflow's), each placed
 * before the first reported commit git made after it. A reported commit matches git's by hash prefix (a runner's
 * command by its message). A reported commit made since the workflow began that git's complete list does not hold
 * was rewritten (amended, rebased) or reset away, or made on another branch: it is not claimed as on the branch, it
 * says which commit replaced it (git's, of the same subject), which merged it (a pull request's squash, its subject
 * with ` (#123)` after it) or that it is not on the branch now, and where it is as git answered (`off_head`: the
 * branches that hold it, or none). With git's list cut (`more`), or for a commit reported before the workflow began
 * (an imported transcript's), only git's answer (`off_head`) says a reported commit is not on the branch: it may be an
 * older one git's list does not reach.
 * `limits.git_commits` is how many of the commits only git has are listed (the newest), the rest counted in `more`.
 */
export function doneCommits(
  effects: readonly SideEffect[],
  git: GitState | null,
  limits: { commit_subject_chars: number; git_commits: number },
): DoneCommits {
  const reported = effects.filter((e) => e.kind === 'commit').map(reportedOf);
  const work = git?.work_commits;
  const listed: readonly GitCommit[] = work?.listed ?? [];
  const taken = new Set<number>();
  const matchOf = reported.map((r) => {
    const i = listed.findIndex(
      (g, j) =>
        !taken.has(j) && (r.hash ? sameHash(r.hash, g.hash) : commandMade(r.effect.summary, g.subject)),
    );
    if (i >= 0) taken.add(i);
    return i;
  });
  const complete = work !== undefined && work.more === 0;
  // a commit an amend replaced is not on the branch any more: said so, beside the commit that replaced it
  const replacedBy = new Map<string, string>();
  const amendedEarlier = new Map<number, string>();
  reported.forEach((r, k) => {
    const m = r.hash ? amendNote.exec(r.subject) : null;
    if (!m || !r.hash) return;
    if (namesCommit(m[1] as string)) return void replacedBy.set(m[1] as string, r.hash);
    // one read before (`--amend --no-edit`): the latest commit of its subject reported before it that git's whole
    // list no longer holds (with a new message, which one cannot be told: another branch's may be gone too)
    const subject = r.subject.replace(amendNote, '');
    const gone = complete
      ? reported.findLast(
          (o, j) => j < k && o.hash && matchOf[j] === -1 && !replacedBy.has(o.hash) && o.subject === subject,
        )
      : undefined;
    if (gone?.hash) {
      replacedBy.set(gone.hash, r.hash);
      amendedEarlier.set(k, gone.hash);
    }
  });
  const gitOnly = (g: GitCommit): DoneCommit => ({
    hash: shortHash(g.hash),
    subject: clip(g.subject, limits.commit_subject_chars),
    task_id: null,
    git_only: true,
  });
  const began = work ? Date.parse(work.began_at) : NaN;
  const where = !git || git.branch === '(detached)' || git.branch === 'HEAD' ? "HEAD's history" : git.branch;
  /** Not on the branch checked out: where git says it is, when it was asked (`off_head`). */
  const notOn = (hash: string): Fate => {
    const off = git?.off_head?.find((o) => sameHash(o.hash, hash));
    return {
      note: ` (${offBranchWords(where, off?.branches ?? null)})`,
      at: -1,
      not_on: { branch: where, on_branches: off ? off.branches : null },
    };
  };
  /** What an unreported-by-git commit is now, and the listed commit that replaced it (placed before it). */
  const fate = (r: Reported): Fate => {
    const none = { note: '', at: -1 };
    if (!r.hash) return none;
    const by = replacedBy.get(r.hash);
    if (by)
      return { note: ` (replaced by ${shortHash(by)})`, at: listed.findIndex((g) => sameHash(g.hash, by)) };
    // predating the workflow (an imported transcript's) or beyond git's cut list: git's own answer says it is not on
    // HEAD's history, where the list cannot
    const offHead = git?.off_head?.some((o) => sameHash(o.hash, r.hash as string)) === true;
    if (!complete || !(Date.parse(r.effect.timestamp) >= began)) return offHead ? notOn(r.hash) : none;
    const subject = r.subject.replace(amendNote, '');
    const same = listed.findIndex((g, j) => !taken.has(j) && g.subject === subject);
    const g = listed[same];
    if (g) return { note: ` (replaced by ${shortHash(g.hash)})`, at: same };
    // a pull request squash-merged (or merged by rebase) on GitHub: its subject with the request's number after it
    const merged = listed.findIndex((g, j) => !taken.has(j) && prMergeOf(g.subject, subject) !== null);
    const m = listed[merged];
    return m
      ? {
          note: ` (merged as ${shortHash(m.hash)} by pull request #${prMergeOf(m.subject, subject)})`,
          at: merged,
        }
      : notOn(r.hash);
  };
  const out: DoneCommit[] = [];
  let next = 0;
  const gitUpTo = (end: number) => {
    for (; next < end; next++) {
      const g = listed[next] as GitCommit;
      // a commit this worktree did not make (a branch switched to holds another's) is not this workflow's work
      if (!taken.has(next) && !g.elsewhere) out.push(gitOnly(g));
    }
  };
  reported.forEach((r, k) => {
    const i = matchOf[k] ?? -1;
    const task_id = r.effect.task_id ?? null;
    const g = listed[i];
    if (g) {
      gitUpTo(i);
      next = Math.max(next, i + 1);
      // a runner's command git confirmed: git's hash and subject
      out.push(
        r.hash
          ? {
              hash: shortHash(r.hash),
              subject: clip(shortAmends(r.subject, amendedEarlier.get(k)), limits.commit_subject_chars),
              task_id,
            }
          : { hash: shortHash(g.hash), subject: clip(g.subject, limits.commit_subject_chars), task_id },
      );
      return;
    }
    const f = fate(r);
    // a rewritten commit goes just before the one that replaced it; the others where the transcript said them
    if (f.at >= 0) gitUpTo(f.at);
    out.push({
      hash: r.hash ? shortHash(r.hash) : '',
      subject: `${clip(shortAmends(r.subject, amendedEarlier.get(k)), limits.commit_subject_chars)}${f.note}`,
      task_id,
      ...(f.not_on ? { not_on: f.not_on } : {}),
    });
  });
  gitUpTo(listed.length);
  // the newest of git's own are kept when cut: the commit a crash hid is the latest
  const cut = Math.max(0, out.filter((c) => c.git_only).length - Math.max(0, limits.git_commits));
  const dropped = new Set(out.filter((c) => c.git_only).slice(0, cut));
  const commits = out.filter((c) => !dropped.has(c));
  const more = (work?.more ?? 0) + out.length - commits.length;
  const start = git?.commit_at_workflow_start ? shortHash(git.commit_at_workflow_start) : null;
  return {
    commits,
    more,
    more_command: more ? `git log --oneline ${start ? `${start}..HEAD` : 'HEAD'}` : null,
  };
}
