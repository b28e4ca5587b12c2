import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where HEAD stands: the branch checked out (`(detached)` for none, as `git status` says it) and its commit. */
export interface HeadRead {
  branch: string;
  /** Null on a branch without commits yet. */
  commit: string | null;
}

const HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const text = (path: string): Promise<string | null> => readFile(path, 'utf8').catch(() => null);

/** The variables that move where git looks for a repository: with any of them set, git itself is asked. */
const GIT_PLACES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES'];

/**
 * The git folder of the worktree at `top` (`.git`, or where a linked worktree's `.git` file points: its HEAD and the
 * files of an operation under way) and the common folder its branches live in; null when this cannot say for sure: a
 * variable that moves git's search set, a repository of another user (git refuses it unless told it is safe), a ref
 * store of another format (reftable).
 */
export async function gitFolders(top: string): Promise<{ own: string; common: string } | null> {
  if (GIT_PLACES.some((v) => process.env[v])) return null;
  const marker = join(top, '.git');
  const st = await stat(marker).catch(() => null);
  if (!st) return null;
  let own = marker;
  if (st.isFile()) {
    const to = /^gitdir: (.+)$/m.exec((await text(marker)) ?? '')?.[1]?.trim();
    if (!to) return null;
    own = resolve(top, to);
  }
  const owner = (await stat(own).catch(() => null))?.uid;
  if (owner === undefined || (process.getuid && owner !== process.getuid())) return null;
  const commonDir = (await text(join(own, 'commondir')))?.trim();
  const common = commonDir ? resolve(own, commonDir) : own;
  if (await stat(join(common, 'reftable')).catch(() => null)) return null;
  return { own, common };
}

/** The commit a branch ref names: its loose file, else its line in packed-refs; null when neither has it. */
async function refCommit(common: string, ref: string): Promise<string | null | undefined> {
  const loose = (await text(join(common, ref)))?.trim();
  if (loose !== undefined) return HASH.test(loose) ? loose : undefined;
  for (const line of ((await text(join(common, 'packed-refs'))) ?? '').split('\n')) {
    const [hash, name] = line.trim().split(' ');
    if (name === ref && hash && HASH.test(hash)) return hash;
  }
  return null;
}

/**
 * HEAD of the worktree whose top folder is `top`, read from git's own files without starting git (a hook asks it
 * several times, and each git process costs the agent's turn): the branch and its commit, as `git status --branch`
 * says them. Undefined when this cannot say for sure (see `gitFolders`; a ref that is no plain hash): git is asked
 * then.
 */
export async function readHead(top: string): Promise<HeadRead | undefined> {
  const folders = await gitFolders(top);
  if (!folders) return undefined;
  const head = (await text(join(folders.own, 'HEAD')))?.trim();
  if (!head) return undefined;
  if (HASH.test(head)) return { branch: '(detached)', commit: head };
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
  if (!ref) return undefined;
  const commit = await refCommit(folders.common, ref);
  return commit === undefined ? undefined : { branch: ref.slice('refs/heads/'.length), commit };
}
