import { git, tryGit } from './run-git.js';
import { relative } from 'node:path';
import { BatonError, backupRefName, notFound } from '../core/index.js';
import type { RestorePlan, RestoreStep, RestoreTarget } from '../service/ports.js';

export type { RestorePlan, RestoreStep };

const quote = (a: string) => (/^[A-Za-z0-9@%+=:,./_^{}-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
const step = (...args: string[]): RestoreStep => ({ args, command: ['git', ...args].map(quote).join(' ') });
const detached = (b: string | null) => !b || b === 'HEAD' || b === '(detached)';
const LISTED = 50;

/**
 * What restoring a worktree to a checkpoint's commit takes (`git checkout <branch>`, `git reset --hard <commit>`),
 * without doing any of it: the commits that would leave the branch and the files that would change, and the backup
 * ref that keeps those commits (and, with `force`, the uncommitted tracked changes). Refuses a dirty tree unless
 * told to stash or force.
 */
export async function planRestore(
  worktree: string,
  target: RestoreTarget,
  opts: { stash?: boolean; force?: boolean; exclude?: string[]; inspectOnly?: boolean } = {},
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
  const trackedDirty = status
    .split('\0')
    .filter((l) => l.length > 3 && !l.startsWith('??'))
    .map((l) => l.slice(3));
  const currentBranch =
    (await tryGit(worktree, ['symbolic-ref', '--quiet', '--short', 'HEAD']))?.trim() || null;
  const currentCommit =
    (await tryGit(worktree, ['rev-parse', '--verify', '--quiet', 'HEAD']))?.trim() || null;
  const branch = detached(target.branch) ? null : target.branch;
  const branchHead =
    branch === null
      ? currentCommit
      : (await tryGit(worktree, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]))?.trim() ||
        null;
  const from = branchHead ?? currentCommit;
  const dropped = from
    ? (await git(worktree, ['log', '--format=%H%x09%s', `${target.commit}..${from}`]))
        .split('\n')
        .filter(Boolean)
        .map((l) => ({ sha: l.slice(0, 40), subject: l.slice(41) }))
    : [];
  const files = from
    ? (
        await git(worktree, [
          'diff',
          '--name-status',
          '--no-renames',
          from,
          target.commit,
          '--',
          '.',
          ...excludes,
        ])
      )
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [st, ...rest] = l.split('\t');
          return { status: st ?? '?', path: rest.join('\t') };
        })
    : [];
  const mode = dirty.length === 0 ? 'clean' : opts.stash ? 'stash' : opts.force ? 'force' : null;
  if (mode === null && !opts.inspectOnly) {
    throw new BatonError(
      'invalid_transition',
      `the worktree ${worktree} has uncommitted changes (${dirty.slice(0, 5).join(', ')}${dirty.length > 5 ? `, +${dirty.length - 5} more` : ''}); restoring ${target.label} would overwrite them. Commit them, or pass --stash (stash them first) or --force (discard them; tracked changes are kept on a backup ref); --dry-run shows the plan`,
      { dirty_files: dirty },
    );
  }
  const movesBranch = from !== null && from !== target.commit;
  const switchesBranch = branch !== null && currentBranch !== branch;
  const backupRef = dropped.length ? backupRefName(target.workflowId, target.at) : null;
  const worktreeBackupRef =
    mode === 'force' && trackedDirty.length
      ? `${backupRefName(target.workflowId, target.at)}-worktree`
      : null;
  const steps: RestoreStep[] = [];
  // Nothing a restore takes off the branch is lost: the old head stays reachable from the backup ref.
  if (backupRef && from)
    steps.push(step('update-ref', '-m', `baton: before restoring ${target.label}`, backupRef, from));
  if (worktreeBackupRef)
    steps.push({
      args: [],
      command: `git update-ref ${worktreeBackupRef} $(git stash create)`,
      stash_create: worktreeBackupRef,
    });
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
  if (branch === null) {
    if (currentCommit !== target.commit) steps.push(step('checkout', ...f, '--detach', target.commit));
  } else if (!branchHead) steps.push(step('checkout', ...f, '-b', branch, target.commit));
  else {
    if (switchesBranch) steps.push(step('checkout', ...f, branch));
    if (movesBranch || mode !== 'clean') steps.push(step('reset', '--hard', target.commit));
  }
  return {
    worktree,
    branch,
    commit: target.commit,
    current_branch: currentBranch,
    current_commit: currentCommit,
    branch_head: from,
    dirty_files: dirty,
    untracked_files: dirty.filter((f) => !trackedDirty.includes(f)),
    commits_dropped: dropped.length,
    dropped_commits: dropped.slice(0, LISTED),
    files_changed: files.slice(0, LISTED * 4),
    files_changed_count: files.length,
    moves_branch: movesBranch || switchesBranch,
    backup_ref: backupRef,
    worktree_backup_ref: worktreeBackupRef,
    mode: mode ?? 'clean',
    steps,
  };
}

/** Runs a plan's steps in order; a failing step stops the rest and says what was already done. */
export async function applyRestore(plan: RestorePlan): Promise<{ done: string[] }> {
  const done: string[] = [];
  for (const s of plan.steps) {
    try {
      if (s.stash_create) {
        const sha = (await git(plan.worktree, ['stash', 'create'])).trim();
        if (sha)
          await git(plan.worktree, [
            'update-ref',
            '-m',
            'baton: uncommitted changes before a restore',
            s.stash_create,
            sha,
          ]);
      } else await git(plan.worktree, s.args);
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
