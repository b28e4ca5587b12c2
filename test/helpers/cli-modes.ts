import { afterAll, beforeAll } from 'vitest';
import { tempDir } from './git-repo.js';
import { startServerProcess, type ServerProcess } from './server.js';

/** The CLI runs in-process over the local store, or against a real `baton serve` child process. */
export const cliModes = ['local', 'server'] as const;
export type CliMode = (typeof cliModes)[number];

/**
 * The environment for the CLI in one mode, with a fresh BATON_HOME. In server mode, registers hooks that start a
 * `baton serve` on that home before the enclosing describe block and stop it after; BATON_URL is filled in then.
 * Call it before the block's own beforeAll hooks.
 */
export function modeEnv(mode: CliMode): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    BATON_HOME: tempDir('baton-home-'),
    BATON_URL: undefined,
    BATON_TOKEN: undefined,
    BATON_DATABASE_URL: undefined,
  };
  if (mode === 'server') {
    let server: ServerProcess | null = null;
    beforeAll(async () => {
      server = await startServerProcess(env.BATON_HOME as string);
      env.BATON_URL = server.url;
    });
    afterAll(async () => {
      await server?.stop();
    });
  }
  return env;
}
