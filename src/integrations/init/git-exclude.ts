import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** git's output in `root` and its exit status (-1: it did not run); `input` goes to its standard input. */
function runGit(root: string, args: string[], input?: string): { out: string; status: number } {
  try {
    return {
      out: execFileSync('git', args, { cwd: root, stdio: 'pipe', encoding: 'utf8', input }),
      status: 0,
    };
  } catch (e) {
    const err = e as { status?: number | null; stdout?: string };
    return { out: err.stdout ?? '', status: err.status ?? -1 };
  }
}

// a command asks for the same git paths many times (each file init writes, each file doctor looks at), and where
// git keeps them does not change while it runs; a failure (not a repository yet) is not kept, and is asked again
const gitPaths = new Map<string, string>();

/** A path inside the repository's git directory (`git rev-parse --git-path`: linked worktrees share theirs). */
export function gitPath(root: string, rel: string): string | null {
  const key = `${root}\0${rel}`;
  const known = gitPaths.get(key);
  if (known !== undefined) return known;
  const { out: said, status } = runGit(root, ['rev-parse', '--git-path', rel]);
  const out = said.trim();
  if (status !== 0 || !out) return null;
  const path = out.startsWith('/') ? out : join(root, out);
  gitPaths.set(key, path);
  return path;
}

const lineFor = (root: string, path: string) => `/${relative(root, path).split('\\').join('/')}`;

/** Lists a file init created in `.git/info/exclude` (local to this clone: never committed). */
export function addExclude(root: string, path: string): boolean {
  const exclude = gitPath(root, 'info/exclude');
  if (!exclude) return false;
  const line = lineFor(root, path);
  const text = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  if (text.split('\n').includes(line)) return false;
  mkdirSync(dirname(exclude), { recursive: true });
  writeFileSync(exclude, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}\n`);
  return true;
}

/** Whether `.git/info/exclude` lists the file in the form `addExclude` writes. */
export function hasExclude(root: string, path: string): boolean {
  const exclude = gitPath(root, 'info/exclude');
  return (
    !!exclude &&
    existsSync(exclude) &&
    readFileSync(exclude, 'utf8').split('\n').includes(lineFor(root, path))
  );
}

export function removeExclude(root: string, path: string): boolean {
  const exclude = gitPath(root, 'info/exclude');
  if (!exclude || !existsSync(exclude)) return false;
  const line = lineFor(root, path);
  const lines = readFileSync(exclude, 'utf8').split('\n');
  if (!lines.includes(line)) return false;
  writeFileSync(exclude, lines.filter((l) => l !== line).join('\n'));
  return true;
}

export type GitStanding = 'tracked' | 'ignored' | 'untracked';

/**
 * Which of `paths` git tracks (`git ls-files`: in the index, committed or added), asked in one call; null outside a
 * repository. A path git refuses (outside the repository) is not tracked: when the call fails, each path is asked on
 * its own, so one such path does not take the answer for the others with it.
 */
export function trackedFiles(root: string, paths: readonly string[]): Set<string> | null {
  if (!gitPath(root, 'info')) return null;
  const tracked = new Set<string>();
  if (!paths.length) return tracked;
  // asked relative to `root`, as git lists them (an absolute path through a symbolic link would not match its answer)
  const rels = paths.map((p) => relative(root, p));
  const listed = runGit(root, ['ls-files', '-z', '--', ...rels]);
  if (listed.status !== 0) {
    if (paths.length > 1) for (const p of paths) if (trackedFiles(root, [p])?.size) tracked.add(p);
    return tracked;
  }
  const files = listed.out.split('\0').filter(Boolean);
  // a folder is tracked when a file in it is, as `ls-files --error-unmatch <folder>` says
  paths.forEach((p, i) => {
    const rel = rels[i]!;
    if (files.some((f) => f === rel || f.startsWith(`${rel}/`))) tracked.add(p);
  });
  return tracked;
}

/**
 * Whether each of `paths` (files of the repository) is committed (`tracked`), kept out of it (`ignored`:
 * `.git/info/exclude` or a `.gitignore`), or neither yet; null outside a repository. Two git calls whatever the
 * number of files; the answers hold until a file is added to git or an exclude line is written. `ignored` false: only
 * whether git tracks each is asked (one call), the others all `untracked`.
 */
export function gitStandings(
  root: string,
  paths: readonly string[],
  ignored = true,
): Map<string, GitStanding> | null {
  const tracked = trackedFiles(root, paths);
  if (!tracked) return null;
  const out = new Map<string, GitStanding>(paths.map((p) => [p, tracked.has(p) ? 'tracked' : 'untracked']));
  const rest = paths.filter((p) => !tracked.has(p));
  if (!rest.length || !ignored) return out;
  // exit 0: some are ignored (listed), 1: none is, 128: git refused one (outside the repository): each asked on its own
  const ignoredOf = (ps: readonly string[]): string[] => {
    const said = runGit(root, ['check-ignore', '-z', '--stdin'], ps.map((p) => `${p}\0`).join(''));
    if (said.status === 0) return said.out.split('\0').filter(Boolean);
    return said.status === 1 || ps.length === 1 ? [] : ps.flatMap((p) => ignoredOf([p]));
  };
  for (const p of ignoredOf(rest)) if (out.has(p)) out.set(p, 'ignored');
  return out;
}

/** The standing of one file of the repository (see `gitStandings`); null outside a repository. */
export const gitStandingOf = (root: string, path: string): GitStanding | null =>
  gitStandings(root, [path])?.get(path) ?? null;

/**
 * The standing of files of the repository (see `gitStandings`) for a command during which it does not change: asked
 * of git at the first question, at once for the files `ahead`; a file not among them is asked on its own. `ignored`
 * false: only whether git tracks them (what stays true while a command writes exclude lines, as init does).
 */
export function standingLookup(
  root: string,
  ahead: readonly string[],
  ignored = true,
): (path: string) => GitStanding | null {
  let known: Map<string, GitStanding> | null | undefined;
  return (path) => {
    if (known === undefined) known = gitStandings(root, [...new Set(ahead)], ignored);
    if (known === null) return null;
    return known.get(path) ?? gitStandings(root, [path], ignored)?.get(path) ?? null;
  };
}

/** The text of a file of the repository as its last commit holds it (`git show HEAD:<file>`); null without one. */
export function committedText(root: string, path: string): string | null {
  const said = runGit(root, ['show', `HEAD:./${relative(root, path).split('\\').join('/')}`]);
  return said.status === 0 ? said.out : null;
}
