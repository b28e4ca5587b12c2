import { join } from 'node:path';
import { runCli } from './cli.js';
import { gitIn, makeRepo, tempDir } from './git-repo.js';
import { freshPostgresUrl } from './postgres.js';

type Json = Record<string, unknown>;

/**
 * Ana and Ben share one Baton store (one SQLite file both reach, or a team PostgreSQL), each with their own clone of
 * one origin at their own path and their own HOME. Ben's git identity is only in his environment. `cloneAt` makes
 * another clone of the origin at a path (Ben's at the path Ana's was: devcontainers' `/workspaces/<repo>`).
 */
export async function team(store: 'sqlite' | 'postgres') {
  const origin = makeRepo('baton-origin-');
  const shared: Record<string, string> =
    store === 'postgres'
      ? { BATON_DATABASE_URL: await freshPostgresUrl('baton_teammates') }
      : { BATON_HOME: tempDir('baton-home-') };
  const cloneAt = (dir: string) => {
    gitIn(origin, 'clone', '-q', origin, dir);
    return dir;
  };
  const ana = cloneAt(join(tempDir('baton-ana-'), 'cli'));
  gitIn(ana, 'config', 'user.email', 'ana@team.example');
  const ben = cloneAt(join(tempDir('baton-ben-'), 'cli'));
  const anaEnv = { ...shared, HOME: tempDir('baton-user-') };
  const benEnv: Record<string, string> = {
    ...shared,
    HOME: tempDir('baton-user-'),
    GIT_AUTHOR_EMAIL: 'ben@team.example',
    GIT_COMMITTER_EMAIL: 'ben@team.example',
  };
  const envs: Record<string, Record<string, string>> = { [ana]: anaEnv, [ben]: benEnv };
  const hook = (repo: string, event: string, fields: Json) =>
    runCli(['hook', event], {
      cwd: repo,
      env: envs[repo] ?? { ...shared, HOME: tempDir('baton-user-') },
      input: JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }),
    });
  const baton = (repo: string, ...args: string[]) => runCli(args, { cwd: repo, env: envs[repo] });
  /** Ben's shell at `dir`: his identity and HOME, wherever his clone is. */
  const asBen = (dir: string, ...args: string[]) => runCli(args, { cwd: dir, env: benEnv });
  const follows = (stderr: string) => /workflow (wf-[^\s)]+)/.exec(stderr)?.[1];
  return { origin, ana, ben, anaEnv, benEnv, hook, baton, asBen, follows, cloneAt };
}
