import { delimiter, join } from 'node:path';
import { packageRoot } from '../../config/package-info.js';
import { executableStanding } from './find-executable.js';

/**
 * An agent's environment with `baton` on its PATH: the agent's hooks and MCP server name `baton` (its files are
 * written so), and an agent Baton runs where none is on the PATH (in a container, whose image has no Baton; a
 * Baton run by its path, `node bin/baton.js run`) would get "baton: not found" at every event. The Baton that runs
 * the agent goes first on that PATH then (`bin/on-path/baton`, this package's); a `baton` already there stays.
 */
export function withBatonOnPath(env: NodeJS.ProcessEnv, cwd: string): NodeJS.ProcessEnv {
  if ('path' in executableStanding('baton', cwd, env.PATH ?? '')) return env;
  const own = join(packageRoot(), 'bin', 'on-path');
  return { ...env, PATH: env.PATH ? `${own}${delimiter}${env.PATH}` : own };
}
