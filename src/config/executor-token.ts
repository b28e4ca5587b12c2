import { invalidInput } from '../core/index.js';
import { isLoopback } from './request-guard.js';
import { ensureTokenFile, executorTokenPath, readTokenFile } from './token-file.js';

export const EXECUTOR_TOKEN_VARIABLE = 'BATON_EXECUTOR_TOKEN';
/** An explicit token shorter than this is refused: it would be guessable. */
export const MIN_EXPLICIT_TOKEN = 16;

/** The token Baton sends to a remote executor, and where it came from (named in errors). */
export interface ExecutorCredential {
  token: string | null;
  /** `the variable BATON_EXECUTOR_TOKEN` or `the file <path>`. */
  source: string;
  /** How to get the right one, for error messages. */
  hint: string;
}

const hint =
  `set ${EXECUTOR_TOKEN_VARIABLE} to the token \`baton executor token\` prints on the executor's host ` +
  `($BATON_HOME/executor-token there)`;

/**
 * What Baton's client sends to `baton executor serve`: `BATON_EXECUTOR_TOKEN`, else `$BATON_HOME/executor-token`
 * (the file the daemon creates at first start, when both run with the same home). Null token: neither exists.
 */
export function executorCredential(env: NodeJS.ProcessEnv, home: string): ExecutorCredential {
  const fromEnv = env[EXECUTOR_TOKEN_VARIABLE]?.trim();
  if (fromEnv) return { token: fromEnv, source: `the variable ${EXECUTOR_TOKEN_VARIABLE}`, hint };
  const path = executorTokenPath(home);
  return { token: readTokenFile(path), source: `the file ${path}`, hint };
}

/**
 * The daemon's own token: `BATON_EXECUTOR_TOKEN` (explicit, at least 16 characters), else the token file under
 * BATON_HOME, created at first start (mode 0600). A non-loopback bind needs the explicit token: whoever exposes
 * the daemon to a network chooses the secret and hands it to Baton on the other side.
 */
export function daemonToken(
  env: NodeJS.ProcessEnv,
  home: string,
  host: string,
): { token: string; source: string } {
  const fromEnv = env[EXECUTOR_TOKEN_VARIABLE]?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_EXPLICIT_TOKEN)
      throw invalidInput(
        `${EXECUTOR_TOKEN_VARIABLE} is ${fromEnv.length} characters long; use at least ${MIN_EXPLICIT_TOKEN} random ones (e.g. \`openssl rand -base64 32\`)`,
      );
    return { token: fromEnv, source: `the variable ${EXECUTOR_TOKEN_VARIABLE}` };
  }
  if (!isLoopback(host))
    throw invalidInput(
      `refusing to bind ${host} without an explicit token: set ${EXECUTOR_TOKEN_VARIABLE} (at least ${MIN_EXPLICIT_TOKEN} random characters) here and on the Baton side, or bind 127.0.0.1 (option --host)`,
    );
  const path = executorTokenPath(home);
  return { token: ensureTokenFile(path), source: `the file ${path}` };
}
