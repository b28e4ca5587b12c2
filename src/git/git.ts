import { git, tryGit } from './run-git.js';
import { gitFolders, readHead } from './git-files.js';
import { readFile, realpath, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { onlyBlockDiffers } from '../core/baton-block.js';
import {
  WORK_COMMITS_LISTED,
  type GitCapture,
  type GitConflict,
  type GitMark,
  type GitStart,
  type WorkCommits,
  type WorkSpan,
} from '../core/index.js';

/**
 * The worktree a directory belongs to: the git top level, or the directory itself outside git. Found on the file
 * system (the nearest folder holding `.git`, a folder or a linked worktree's file) as `git rev-parse
 * --show-toplevel` does, without starting git: every command that finds "the workflow of this worktree" pays for
 * this. With GIT_DIR or GIT_WORK_TREE set, git itself is asked.
 */
export async function resolveWorktree(dir: string): Promise<string> {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE) {
    const top = await tryGit(dir, ['rev-parse', '--show-toplevel']);
    return realpath(top?.trim() || dir);
  }
  return (await findGitTop(dir)) ?? realpath(dir);
}

/** The nearest folder holding `.git` at or above `dir` (its real path), without starting git; null outside git. */
export async function findGitTop(dir: string): Promise<string | null> {
  const real = await realpath(dir);
  for (let d = real; ; d = dirname(d)) {
    if (await isGitMarker(join(d, '.git'))) return d;
    if (dirname(d) === d) return null;
  }
}

async function isGitMarker(path: string): Promise<boolean> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) return true;
    return s.isFile() && (await readFile(path, 'utf8')).startsWith('gitdir:');
  } catch {
    return false;
  }
}

/**
 * Where git stands, in one `git status`: the branch, HEAD and the files with uncommitted changes (untracked ones
 * included), as a turn's end keeps them (`GitMark`); null outside a repository.
 */
export async function gitMark(dir: string): Promise<GitMark | null> {
  const status = await tryGit(dir, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
  if (status === null) return null;
  const head = parseBranchHeaders(status.split('\0').join('\n'));
  const { changed } = parseStatusEntries(status);
  return {
    branch: head.branch ?? 'HEAD',
    commit_at_snapshot: head.commit,
    has_uncommitted_changes: changed.length > 0,
    uncommitted_files: changed,
  };
}

/**
 * Whose work a worktree holds: the email its commits are made with, lowercased, as git itself decides it
 * (`git var GIT_AUTHOR_IDENT`: GIT_AUTHOR_EMAIL first, then `author.email`, `user.email`), so an identity given only
 * by the environment (a devcontainer's) counts. Null when none is given: `user.useConfigOnly` keeps git from making
 * one up (`user@host` is no one's: it changes with the machine), and the name is set here because git refuses an
 * ident without one and only the email is read.
 */
export function owner(dir: string): Promise<string | null> {
  const now = Date.now();
  const known = owners.get(dir);
  if (known && now - known.at < OWNER_KEPT_MS) return known.email;
  const ident = tryGit(dir, [
    '-c',
    'user.useConfigOnly=true',
    '-c',
    'user.name=baton',
    'var',
    'GIT_AUTHOR_IDENT',
  ]);
  const email = ident.then(
    (i) =>
      /<([^>]*)>/
        .exec(i ?? '')?.[1]
        ?.trim()
        .toLowerCase() || null,
  );
  owners.set(dir, { at: now, email });
  return email;
}

/**
 * The person's git identity at `cwd`: the one of its worktree, as the hooks record a workflow's owner (outside git, the
 * folder's: the environment's and the global one). A client sends it to a server (X-Baton-Identity), and `baton serve`
 * asks it of the folder it runs in. `worktree`: the workflow asked of; from outside any git worktree (a shell at `~`),
 * the identity git gives in that worktree when it is one on this machine (a per-repository `user.email` other than the
 * global one is the person's own for that work), as git would judge there; else the folder's.
 */
export async function identityAt(cwd: string, worktree?: string | null): Promise<string | null> {
  const here = await resolveWorktree(cwd).catch(() => null);
  const outside = !(await findGitTop(cwd).catch(() => null));
  if (outside && worktree && (await findGitTop(worktree).catch(() => null)) === worktree) {
    const there = await owner(worktree);
    if (there) return there;
  }
  return owner(here ?? cwd);
}

/**
 * The email git's mailmap at `dir` (the repository's `.mailmap`, else `mailmap.file` or `mailmap.blob` of its config)
 * gives for `email`, lowercased: the one a person commits under now for one they used before (`git check-mailmap`).
 * `email` itself when nothing maps it; null when git cannot tell.
 */
export async function mailmap(dir: string, email: string): Promise<string | null> {
  const out = await tryGit(dir, ['check-mailmap', `<${email}>`]);
  return (
    /<([^>]*)>/
      .exec(out ?? '')?.[1]
      ?.trim()
      .toLowerCase() || null
  );
}

/** One command asks several times (its workflow, the run folders, the hooks' list): git is asked once a few seconds. */
const OWNER_KEPT_MS = 5_000;
const owners = new Map<string, { at: number; email: Promise<string | null> }>();

/**
 * The files already changed when a workflow begins whose content is kept, at most (more, or larger ones, are taken for
 * its work: hashing them again at every capture would cost more than it says).
 */
const DIRTY_KEPT = 200;
const DIRTY_FILE_BYTES = 1024 * 1024;

/**
 * Branch and HEAD when a workflow starts (null commit in a repository without commits); with `dirty`, also the files
 * already changed then with their content's hash (`GitStart.dirty`): the user's work in progress is not the
 * workflow's. A workflow made after the work (an import's) takes none: what is changed then is that work.
 */
export async function gitStart(dir: string, opts: { dirty?: boolean } = {}): Promise<GitStart | null> {
  if (!opts.dirty) {
    // read from git's files when they are the plain kind (no git process), else git is asked
    const top = await findGitTop(dir).catch(() => null);
    const read = top === null ? undefined : await readHead(top);
    if (read) return read;
    const status = await tryGit(dir, ['status', '--porcelain=v2', '--branch', '--untracked-files=no']);
    if (status === null) return null;
    const head = parseBranchHeaders(status);
    return { branch: head.branch, commit: head.commit };
  }
  const status = await tryGit(dir, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
  if (status === null) return null;
  const head = parseBranchHeaders(status.split('\0').join('\n'));
  const { changed } = parseStatusEntries(status);
  const dirty = changed.length && changed.length <= DIRTY_KEPT ? await blobHashes(dir, changed) : {};
  return { branch: head.branch, commit: head.commit, ...(Object.keys(dirty).length ? { dirty } : {}) };
}

/**
 * Each file's blob hash as the worktree holds it (as git stores it, no filter applied), for files up to
 * DIRTY_FILE_BYTES; a path that is no such file is left out (it counts as changed), and all when git cannot say.
 */
async function blobHashes(dir: string, paths: readonly string[]): Promise<Record<string, string>> {
  const present: string[] = [];
  for (const p of paths) {
    const st = await stat(join(dir, p)).catch(() => null);
    if (st?.isFile() && st.size <= DIRTY_FILE_BYTES) present.push(p);
  }
  if (!present.length) return {};
  const hashes =
    (await tryGit(dir, ['hash-object', '--no-filters', '--', ...present]))?.trim().split('\n') ?? [];
  if (hashes.length !== present.length) return {};
  return Object.fromEntries(present.map((p, i) => [p, hashes[i] ?? '']));
}

function parseBranchHeaders(status: string) {
  let branch: string | null = null;
  let commit: string | null = null;
  for (const line of status.split('\n')) {
    if (line.startsWith('# branch.head ')) branch = line.slice(14).trim();
    if (line.startsWith('# branch.oid ')) {
      const oid = line.slice(13).trim();
      commit = oid === '(initial)' ? null : oid;
    }
  }
  return { branch, commit };
}

/** Paths named by `git status --porcelain=v2 -z` entries, with the staged ones apart. */
function parseStatusEntries(z: string) {
  const staged = new Set<string>();
  const changed = new Set<string>();
  const untracked = new Set<string>();
  const unmerged = new Set<string>();
  const parts = z.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] ?? '';
    if (p.startsWith('1 ') || p.startsWith('2 ')) {
      const fields = p.split(' ');
      const xy = fields[1] ?? '..';
      const path = fields.slice(p.startsWith('1 ') ? 8 : 9).join(' ');
      if (xy[0] !== '.') staged.add(path);
      changed.add(path);
      if (p.startsWith('2 ')) i++;
    } else if (p.startsWith('u ')) {
      changed.add(p.split(' ').slice(10).join(' '));
      unmerged.add(p.split(' ').slice(10).join(' '));
    } else if (p.startsWith('? ')) {
      changed.add(p.slice(2));
      untracked.add(p.slice(2));
    }
  }
  return {
    staged: [...staged].sort(),
    changed: [...changed].sort(),
    untracked: [...untracked],
    unmerged: [...unmerged].sort(),
  };
}

/** The files git keeps in its folder while an operation is stopped half-way, and the operation each means. */
const IN_PROGRESS = [
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['MERGE_HEAD', 'merge'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
] as const;

/** The merge, rebase, cherry-pick or revert git is in the middle of in the worktree (null: none, or not known). */
async function operationInProgress(dir: string): Promise<GitConflict['operation']> {
  // in the worktree's own git folder (a linked worktree's too): found on the file system, else where git says
  const top = await findGitTop(dir).catch(() => null);
  const own = top === null ? null : (await gitFolders(top))?.own;
  const out = own
    ? IN_PROGRESS.map(([file]) => join(own, file)).join('\n')
    : await tryGit(dir, ['rev-parse', ...IN_PROGRESS.flatMap(([file]) => ['--git-path', file])]);
  if (out === null) return null;
  const paths = out.split('\n');
  const at = IN_PROGRESS.findIndex((_, i) => paths[i] && existsSync(resolve(dir, paths[i])));
  return at < 0 ? null : IN_PROGRESS[at]![1];
}

/** The conflict of a worktree, from its unmerged paths and the operation in progress; null when there is none. */
const conflictOf = (unmerged: string[], operation: GitConflict['operation']): GitConflict | null =>
  unmerged.length || operation ? { operation, unmerged } : null;

/**
 * An unresolved conflict in the worktree, or a merge, rebase, cherry-pick or revert stopped half-way: what `baton
 * status` says first (null: none, or not a repository).
 */
export async function gitConflict(dir: string): Promise<GitConflict | null> {
  const [status, operation] = await Promise.all([
    tryGit(dir, ['status', '--porcelain=v2', '-z', '--untracked-files=no']),
    operationInProgress(dir),
  ]);
  return status === null ? null : conflictOf(parseStatusEntries(status).unmerged, operation);
}

/** The files `baton init` puts its instructions block in (at the top of the worktree). */
const BLOCK_FILES = new Set(['CLAUDE.md', 'AGENTS.md']);

/**
 * Which of the changed files differ from HEAD (in the worktree, and in the index when staged) only by Baton's
 * instructions block, which `baton init` put in (or `--undo` took out): not the user's change. A file the user
 * changed too is not among them.
 */
async function blockOnlyFiles(
  dir: string,
  entries: { changed: readonly string[]; staged: readonly string[] },
): Promise<string[]> {
  const read = (path: string) => readFile(join(dir, path), 'utf8').catch(() => null);
  const out: string[] = [];
  for (const path of entries.changed.filter((p) => BLOCK_FILES.has(basename(p)))) {
    const head = await tryGit(dir, ['show', `HEAD:${path}`]);
    if (!onlyBlockDiffers(head, await read(path))) continue;
    if (entries.staged.includes(path)) {
      const index = await tryGit(dir, ['show', `:${path}`]);
      if (index !== head && !onlyBlockDiffers(head, index)) continue;
    }
    out.push(path);
  }
  return out;
}

/** A subject kept in a snapshot is at most this long (the context clips it shorter still). */
const SUBJECT_CHARS = 200;

/** `git log -z --format=%H%x00%s` output as commits, newest first. */
function parseLog(out: string) {
  const parts = out.split('\0');
  const commits: { hash: string; subject: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const hash = (parts[i] ?? '').trim();
    if (/^[0-9a-f]{40,64}$/.test(hash))
      commits.push({ hash, subject: (parts[i + 1] ?? '').slice(0, SUBJECT_CHARS) });
  }
  return commits;
}

/**
 * A move of HEAD that makes no commit of its own (it arrives at one made elsewhere), by its reflog message (its action
 * before the first colon, never the subject after it): a checkout or switch, a reset, a rebase's start and finish, a
 * fast-forward merge or pull.
 */
const ARRIVAL =
  /^(?:(?:checkout|reset|branch|clone|bisect)\b|[^:]*\((?:start|finish|abort)\):|(?:merge|pull|rebase)\b[^:]*: fast-forward$)/i;

/**
 * Which of `commits` this worktree made since `start.at`: those its HEAD's reflog (one per worktree) moved to by
 * making them (a commit, an amend, a merge, a rebase's pick, a cherry-pick), not by arriving at them. A commit made in
 * another worktree, or brought by a checkout, a pull or a fast-forward, is in HEAD's history after a branch switch but
 * is not this worktree's work. Null when the reflog cannot tell: it is off, or does not reach back to the start
 * (expired), and a commit it lacks may be this worktree's all the same.
 */
async function madeHere(
  dir: string,
  start: WorkSpan,
  commits: readonly { hash: string }[],
): Promise<Set<string> | null> {
  const since = Math.floor(Date.parse(start.at) / 1000);
  const out = await tryGit(dir, ['log', '-g', '-z', '--format=%H%x00%gs', `--since=@${since}`, 'HEAD']);
  if (out === null) return null;
  const made = new Set<string>();
  const parts = out.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (!ARRIVAL.test(parts[i + 1] ?? '')) made.add((parts[i] ?? '').trim());
  }
  if (commits.every((c) => made.has(c.hash))) return made;
  // the reflog holds a move from before the start: it covers the whole span
  const before = await tryGit(dir, ['log', '-g', '-1', '--format=%H', `--until=@${since}`, 'HEAD']);
  return before?.trim() ? made : null;
}

/**
 * The commits of HEAD's history after `start.commit`, the newest WORK_COMMITS_LISTED listed (oldest first) and the
 * rest counted. `timed`: committed at or after `start.at` too (to the second, git's precision) and, for a finished
 * workflow, before `start.until`: a workflow's work, where a rebase onto a newer base does not count the base's
 * older commits and what came after the end is another's work, and the commits this worktree did not make are marked
 * `elsewhere` (`madeHere`). Untimed (a snapshot's HEAD), every commit HEAD has that
 * the start has not, however old (a pull brings older commits that are new here). A start commit git no longer knows
 * (a repository cloned again, a rewritten commit collected) bounds by the time alone. The walk stops at the first
 * commit older than the start: a long-lived branch costs what was added since, not its history.
 */
async function commitsAfter(dir: string, start: WorkSpan, timed: boolean): Promise<WorkCommits> {
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const window = [
    `--since=@${seconds(start.at)}`,
    // a finished workflow's last commit may share its second with the end
    ...(start.until ? [`--until=@${seconds(start.until) + 1}`] : []),
  ];
  const range = (negate: boolean) => [
    'HEAD',
    ...(timed || !negate ? window : []),
    ...(negate && start.commit ? ['--not', start.commit] : []),
  ];
  const log = (negate: boolean) =>
    tryGit(dir, [
      'log',
      '-z',
      '--format=%H%x00%s',
      `--max-count=${WORK_COMMITS_LISTED + 1}`,
      ...range(negate),
    ]);
  let negate = start.commit !== null;
  let out = await log(negate);
  if (out === null && negate) {
    negate = false;
    out = await log(false);
  }
  const newest = parseLog(out ?? '');
  const here = timed && newest.length ? await madeHere(dir, start, newest) : null;
  let more = 0;
  if (newest.length > WORK_COMMITS_LISTED) {
    const count = Number((await tryGit(dir, ['rev-list', '--count', ...range(negate)]))?.trim());
    more = (Number.isFinite(count) ? count : newest.length) - WORK_COMMITS_LISTED;
  }
  return {
    listed: newest
      .slice(0, WORK_COMMITS_LISTED)
      .reverse()
      .map((c) => ({
        hash: c.hash,
        subject: c.subject,
        ...(here && !here.has(c.hash) ? { elsewhere: true as const } : {}),
      })),
    more,
    began_at: start.at,
  };
}

/**
 * Which of `commits` are commits of the repository at `dir` (one git call; a hash it does not hold is left out), null
 * when git cannot tell (not a repository, git missing).
 */
export async function knownCommits(dir: string, commits: readonly string[]): Promise<string[] | null> {
  if (commits.length === 0) return [];
  const out = await tryGit(dir, ['rev-list', '--no-walk', '--ignore-missing', ...commits]);
  if (out === null) return null;
  const here = new Set(out.split('\n').map((l) => l.trim()));
  return commits.filter((c) => here.has(c));
}

/** Whether the folder of a worktree is gone (removed with `git worktree remove`, or deleted): nothing is at its path. */
export const worktreeGone = async (dir: string): Promise<boolean> =>
  stat(dir).then(
    () => false,
    (e: NodeJS.ErrnoException) => e.code === 'ENOENT' || e.code === 'ENOTDIR',
  );

/** Whether `branch` is a local branch of the repository at `dir`; null when git cannot tell. */
export const hasBranch = (dir: string, branch: string): Promise<boolean | null> =>
  gitAnswers(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);

/** Whether `commit` is in the history of `of` (HEAD by default); null when git cannot tell (an unknown commit). */
export const isAncestor = (dir: string, commit: string, of = 'HEAD'): Promise<boolean | null> =>
  gitAnswers(dir, ['merge-base', '--is-ancestor', commit, of]);

/** A git command that answers by its exit code: 0 yes, 1 no, anything else (or no git) null. */
async function gitAnswers(dir: string, args: string[]): Promise<boolean | null> {
  try {
    await git(dir, args);
    return true;
  } catch (e) {
    return (e as { code?: unknown }).code === 1 ? false : null;
  }
}

/** How many of the commits a transcript reported (the newest) git is asked about. */
const OFF_HEAD_ASKED = WORK_COMMITS_LISTED;
/** How far HEAD's history is read back, before the oldest commit asked about, to find them on it in one call. */
const OFF_HEAD_SLACK_S = 86_400;

/**
 * Which of the commits the transcripts reported (`reported`, oldest first) HEAD's history does not hold, and the
 * branches that hold each (local ones first; none: on no branch, as after a `git reset --hard` that left it behind).
 * Those git listed on HEAD (`onHead`) are not asked again, a commit git does not know (another repository's, or
 * collected) is left out, and only the newest OFF_HEAD_ASKED are asked. HEAD's history since a day before the oldest
 * is read in one call (an imported transcript's commits, from before its workflow, are there); `git merge-base
 * --is-ancestor` is asked only of those it does not hold.
 */
async function offHead(
  dir: string,
  reported: readonly { hash: string; at: string }[],
  onHead: readonly { hash: string }[],
): Promise<{ hash: string; branches: string[] }[]> {
  const held = (list: readonly { hash: string }[], h: string) =>
    list.some((c) => c.hash.startsWith(h) || h.startsWith(c.hash));
  const latest = new Map(reported.map((r) => [r.hash, r.at]));
  let asked = [...latest.keys()].filter((h) => !held(onHead, h)).slice(-OFF_HEAD_ASKED);
  if (asked.length === 0) return [];
  const oldest = Math.min(...asked.map((h) => Date.parse(latest.get(h) ?? '') || 0));
  const since = Math.max(0, Math.floor(oldest / 1000) - OFF_HEAD_SLACK_S);
  const recent = await tryGit(dir, ['rev-list', `--since=@${since}`, '--max-count=2000', 'HEAD']);
  const history = (recent ?? '')
    .split('\n')
    .map((hash) => ({ hash: hash.trim() }))
    .filter((c) => c.hash);
  asked = asked.filter((h) => !held(history, h));
  const answers = await Promise.all(asked.map((h) => isAncestor(dir, h)));
  const off = asked.filter((_, i) => answers[i] === false);
  return Promise.all(
    off.map(async (hash) => {
      const refs = await tryGit(dir, [
        'for-each-ref',
        '--contains',
        hash,
        '--format=%(refname:short)',
        'refs/heads',
        'refs/remotes',
      ]);
      const branches = (refs ?? '')
        .split('\n')
        .map((r) => r.trim())
        .filter((r) => r && !r.endsWith('/HEAD'));
      return { hash, branches };
    }),
  );
}

/**
 * The commits HEAD's history gained since a snapshot whose HEAD was `since.commit` (what `baton resume` lists when
 * HEAD moved): every one HEAD has that it had not; those committed since `since.at` when git no longer knows it.
 */
export const commitsSince = (dir: string, since: { commit: string; at: string }): Promise<WorkCommits> =>
  commitsAfter(dir, { commit: since.commit, at: since.at, until: null }, false);

/**
 * Captures the Amelia GitState with real git: branch, start commit, HEAD and its subject, files modified since the
 * start (committed or not, untracked included), staged files, the dirty flag, a short diffstat, and with the
 * workflow's start the commits made since (`commitsAfter`, timed), when another branch than the one its work was
 * last seen on is checked out, whether HEAD's history holds that work (`place_held`), and which commits its transcripts
 * reported HEAD's history does not hold, and where they are (`offHead`).
 */
export async function captureGitState(dir: string, start: WorkSpan | null): Promise<GitCapture> {
  const status = await tryGit(dir, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
  if (status === null)
    return {
      state: null,
      note: existsSync(dir)
        ? `${dir} is not a git repository; no git state is recorded`
        : `${dir} is not on this machine; no git state is recorded (a checkpoint made here names no commit: make it where the worktree is)`,
    };
  const head = parseBranchHeaders(status.split('\0').join('\n'));
  const all = parseStatusEntries(status);
  // Baton's own block in CLAUDE.md / AGENTS.md is not the work in progress: named apart, counted nowhere else
  const block = await blockOnlyFiles(dir, all);
  const mine = (p: string) => !block.includes(p);
  const entries = {
    changed: all.changed.filter(mine),
    staged: all.staged.filter(mine),
    untracked: all.untracked.filter(mine).length,
  };
  const modified = new Set(entries.changed);
  const startCommit = start?.commit ?? null;
  const dirty = entries.changed.length > 0;
  // what git is asked after the status does not wait on each other: asked together
  const place = start?.place;
  const awayFromPlace = place && head.commit && head.branch !== place.branch && head.commit !== place.commit;
  // HEAD's subject: the newest commit listed since the start, unless HEAD is the start (nothing is listed then)
  const subjectOf = (commit: string) =>
    tryGit(dir, ['log', '-1', '--format=%s', commit]).then((s) => s?.trim().slice(0, SUBJECT_CHARS) ?? null);
  const [since, shortstat, work, held, operation, startSubject] = await Promise.all([
    startCommit && head.commit && startCommit !== head.commit
      ? tryGit(dir, ['diff', '--name-only', '-z', startCommit, 'HEAD'])
      : null,
    dirty && head.commit
      ? tryGit(dir, ['diff', '--shortstat', 'HEAD', '--', ...block.map((p) => `:(top,literal,exclude)${p}`)])
      : null,
    // HEAD still the start: no commit since, nothing to ask
    start && head.commit
      ? startCommit === head.commit
        ? { listed: [], more: 0, began_at: start.at }
        : commitsAfter(dir, start, true)
      : null,
    awayFromPlace ? isAncestor(dir, place.commit) : null,
    operationInProgress(dir),
    head.commit && (!start || startCommit === head.commit) ? subjectOf(head.commit) : null,
  ]);
  const conflict = conflictOf(all.unmerged, operation);
  // the reported commits HEAD's history does not hold (after those git listed on it): where each is now
  const off =
    start?.reported?.length && head.commit ? await offHead(dir, start.reported, work?.listed ?? []) : [];
  const committed = new Set((since ?? '').split('\0').filter(Boolean));
  // a file already changed when the workflow began, as it was then, is not its work (unless committed since)
  const before = start?.dirty ?? {};
  const asAtStart = [...modified].filter((p) => before[p] !== undefined && !committed.has(p));
  const now = asAtStart.length ? await blobHashes(dir, asAtStart) : {};
  for (const p of asAtStart) if (now[p] !== undefined && now[p] === before[p]) modified.delete(p);
  for (const f of committed) modified.add(f);
  const recommitted = entries.changed.filter((p) => committed.has(p));
  const stat = (shortstat ?? '').trim();
  const untracked = entries.untracked ? `${entries.untracked} untracked` : '';
  const summary = dirty ? [stat, untracked].filter(Boolean).join(', ') : null;
  // HEAD is the newest commit listed when the workflow made it; else git is asked (at once when HEAD is the start)
  const newest = work?.listed.at(-1);
  const headSubject = !head.commit
    ? null
    : newest && head.commit.startsWith(newest.hash)
      ? newest.subject
      : (startSubject ?? (await subjectOf(head.commit)));
  return {
    state: {
      branch: head.branch ?? 'HEAD',
      commit_at_workflow_start: startCommit,
      commit_at_snapshot: head.commit,
      files_modified: [...modified].sort(),
      files_staged: entries.staged,
      has_uncommitted_changes: dirty,
      uncommitted_summary: summary,
      uncommitted_files: entries.changed,
      ...(recommitted.length ? { changed_after_commit: recommitted } : {}),
      head_subject: headSubject,
      ...(block.length ? { baton_block: block } : {}),
      ...(start ? { work_commits: work ?? { listed: [], more: 0, began_at: start.at } } : {}),
      ...(place && held !== null ? { place_held: { commit: place.commit, held } } : {}),
      ...(conflict ? { conflict } : {}),
      ...(off.length ? { off_head: off } : {}),
    },
    note: head.commit ? null : 'the repository has no commits yet',
  };
}

export { applyRestore, planRestore } from './restore.js';
