import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real git repository in a fresh temporary directory, with one commit. */
export function makeRepo(prefix = 'baton-repo-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@baton.invalid');
  git('config', 'user.name', 'Baton Test');
  writeFileSync(join(dir, 'README.md'), '# test repo\n');
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  return dir;
}

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString();
}

export function tempDir(prefix = 'baton-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** The commit HEAD is at, whole. */
export const headOf = (repo: string): string => gitIn(repo, 'rev-parse', 'HEAD').trim();

/** A commit of one new file: work that a reset to an older commit would take off the branch. */
export function commitFile(repo: string, file: string): void {
  writeFileSync(join(repo, file), 'package cli\n');
  gitIn(repo, 'add', file);
  gitIn(repo, 'commit', '-q', '-m', `add ${file}`);
}
