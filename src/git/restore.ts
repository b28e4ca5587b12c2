import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { BatonError, notFound } from '../core/index.js';

const exec = promisify(execFile);

async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

async function tryGit(dir: string, args: string[]): Promise<string | null> {
  try {
    return await git(dir, args);
  } catch {
    return null;
  }
}

export interface RestoreStep {
  args: string[];
  /** The exact command, as a person would type it. */
  command: string;
}

export interface RestorePlan {
  worktree: string;
  /** The checkpoint's branch (null when it was taken on a detached HEAD). */
  branch: string | null;
  commit: string;
  current_branch: string | null;
  current_commit: string | null;
  /** Uncommitted files (tracked or not), the run folder excluded. */
  dirty_files: string[];
  /** Commits on the branch after the checkpoint: they leave the branch (git reflog still has them). */
  commits_dropped: number;
  mode: 'clean' | 'stash' | 'force';
  steps: RestoreStep[];
}

const quote = (a: string) => (/^[A-Za-z0-9@%+=:,./_^{}-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
const step = (...args: string[]): RestoreStep => ({ args, command: ['git', ...args].map(quote).join(' ') });
const detached = (b: string | null) => !b || b === 'HEAD' || b === '(detached)';

/**
 * What restoring a worktree to a checkpoint's commit takes, the Go Team way (`git checkout <branch>` then
 * `git reset --hard <commit>`), without doing any of it. Refuses a dirty tree unless told to stash or force.
 */
export async function planRestore(
  worktree: string,
  target: { branch: string | null; commit: string; label: string },
  opts: { stash?: boolean; force?: boolean; exclude?: string[] } = {},
): Promise<RestorePlan> {
  if ((await tryGit(worktree, ['rev-parse', '--is-inside-work-tree'])) === null)
    throw new BatonError('invalid_input', `${worktree} is not a git worktree; nothing to restore there`);
  if ((await tryGit(worktree, ['cat-file', '-e', `${target.commit}^{commit}`])) === null)
    throw notFound(`the commit ${target.commit} of ${target.label} is not in the repository at ${worktree}`);
  // Folders to leave alone (the run folder): git ignores them already, or they are excluded by pathspec.
  const excludes: string[] = [];
  for (const path of opts.exclude ?? []) {
    const rel = relative(worktree, path);
    if (!rel || rel.startsWith('..')) continue;
    if ((await tryGit(worktree, ['check-ignore', '-q', rel])) === null) excludes.push(`:(exclude)${rel}`);
  }
  const status = await git(worktree, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--',
    '.',
    ...excludes,
  ]);
  const dirty = status
    .split('\0')
    .filter((l) => l.length > 3)
    .map((l) => l.slice(3));
  const currentBranch =
    (await tryGit(worktree, ['symbolic-ref', '--quiet', '--short', 'HEAD']))?.trim() || null;
  const currentCommit =
    (await tryGit(worktree, ['rev-parse', '--verify', '--quiet', 'HEAD']))?.trim() || null;
  const branch = detached(target.branch) ? null : target.branch;
  const branchExists =
    branch !== null &&
    (await tryGit(worktree, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])) !== null;
  const dropped = branchExists
    ? Number(
        (await tryGit(worktree, ['rev-list', '--count', `${target.commit}..refs/heads/${branch}`]))?.trim() ??
          0,
      )
    : 0;
  const mode = dirty.length === 0 ? 'clean' : opts.stash ? 'stash' : opts.force ? 'force' : null;
  if (mode === null) {
    throw new BatonError(
      'invalid_transition',
      `the worktree ${worktree} has uncommitted changes (${dirty.slice(0, 5).join(', ')}${dirty.length > 5 ? `, +${dirty.length - 5} more` : ''}); restoring ${target.label} would overwrite them. Commit them, or pass --stash (stash them first) or --force (discard them); --dry-run shows the plan`,
      { dirty_files: dirty },
    );
  }
  const steps: RestoreStep[] = [];
  if (mode === 'stash')
    steps.push(
      step(
        'stash',
        'push',
        '--include-untracked',
        '-m',
        `baton: before restoring ${target.label}`,
        ...(excludes.length ? ['--', '.', ...excludes] : []),
      ),
    );
  const f = mode === 'force' ? ['--force'] : [];
  if (branch === null) steps.push(step('checkout', ...f, '--detach', target.commit));
  else if (!branchExists) steps.push(step('checkout', ...f, '-b', branch, target.commit));
  else {
    if (currentBranch !== branch) steps.push(step('checkout', ...f, branch));
    steps.push(step('reset', '--hard', target.commit));
  }
  return {
    worktree,
    branch,
    commit: target.commit,
    current_branch: currentBranch,
    current_commit: currentCommit,
    dirty_files: dirty,
    commits_dropped: dropped,
    mode,
    steps,
  };
}

/** Runs a plan's steps in order; a failing step stops the rest and says what was already done. */
export async function applyRestore(plan: RestorePlan): Promise<{ done: string[] }> {
  const done: string[] = [];
  for (const s of plan.steps) {
    try {
      await git(plan.worktree, s.args);
    } catch (e) {
      const stderr = String((e as { stderr?: unknown }).stderr ?? (e as Error).message).trim();
      throw new BatonError(
        'internal',
        `\`${s.command}\` failed: ${stderr}${done.length ? ` (already done: ${done.join('; ')})` : ' (nothing was changed)'}`,
        { done },
      );
    }
    done.push(s.command);
  }
  return { done };
}
