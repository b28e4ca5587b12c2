import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A path inside the repository's git directory (`git rev-parse --git-path`: linked worktrees share theirs). */
export function gitPath(root: string, rel: string): string | null {
  try {
    const out = execFileSync('git', ['rev-parse', '--git-path', rel], { cwd: root, stdio: 'pipe' })
      .toString()
      .trim();
    return out.startsWith('/') ? out : join(root, out);
  } catch {
    return null;
  }
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

export function removeExclude(root: string, path: string): boolean {
  const exclude = gitPath(root, 'info/exclude');
  if (!exclude || !existsSync(exclude)) return false;
  const line = lineFor(root, path);
  const lines = readFileSync(exclude, 'utf8').split('\n');
  if (!lines.includes(line)) return false;
  writeFileSync(exclude, lines.filter((l) => l !== line).join('\n'));
  return true;
}

/**
 * Whether a file of the repository is committed (`tracked`), kept out of it (`ignored`: `.git/info/exclude` or a
 * `.gitignore`), or neither yet; null outside a repository.
 */
export function gitStandingOf(root: string, path: string): 'tracked' | 'ignored' | 'untracked' | null {
  const git = (...args: string[]) => {
    try {
      execFileSync('git', args, { cwd: root, stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  };
  if (!gitPath(root, 'info')) return null;
  if (git('ls-files', '--error-unmatch', '--', path)) return 'tracked';
  return git('check-ignore', '-q', '--', path) ? 'ignored' : 'untracked';
}
