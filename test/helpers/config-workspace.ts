import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A Baton home and a git worktree (a `.git` folder, `src/deep` below it) in a new temporary folder, each with its
 * config file when given: the worktree's `baton.config.json` and `$BATON_HOME/config.json`.
 */
export function configWorkspace(worktreeConfig?: object, homeConfig?: object) {
  const root = mkdtempSync(join(tmpdir(), 'baton-settings-'));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(home);
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  const worktreeFile = join(repo, 'baton.config.json');
  const homeFile = join(home, 'config.json');
  if (worktreeConfig) writeFileSync(worktreeFile, JSON.stringify(worktreeConfig));
  if (homeConfig) writeFileSync(homeFile, JSON.stringify(homeConfig));
  return { home, repo, env: { BATON_HOME: home } as NodeJS.ProcessEnv, worktreeFile, homeFile };
}
