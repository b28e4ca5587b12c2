import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A git repository with one commit on `main`, in `dir/repo`: the worktree a benchmark's workflows live in. */
export function makeRepo(dir) {
  const repo = join(dir, 'repo');
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(join(repo, 'README.md'), 'bench\n');
  const g = ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com'];
  execFileSync('git', [...g, 'add', '.']);
  execFileSync('git', [...g, 'commit', '-qm', 'init']);
  return repo;
}
