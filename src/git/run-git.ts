import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Runs git in `dir` and returns its standard output. GIT_OPTIONAL_LOCKS=0: reading the state (`git status`) never
 * takes the index lock an agent's own git command may need at the same moment.
 */
export async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  return stdout;
}

/** git's output, or null when it fails (not a repository, no such ref). */
export async function tryGit(dir: string, args: string[]): Promise<string | null> {
  try {
    return await git(dir, args);
  } catch {
    return null;
  }
}
