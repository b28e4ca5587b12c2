import { INSTALL_COMMAND } from '../config/package-info.js';
import { BatonError } from '../core/errors.js';

/**
 * Opening a SQLite file fails this way when better-sqlite3's native binary is missing (its install script did not
 * run: npm 12 runs a dependency's install script only when allowed) or was built for another Node.js. Either is
 * said in one line with the command that fixes it; any other error is returned as it is.
 */
export function sqliteDriverError(e: unknown): unknown {
  const message = e instanceof Error ? e.message : String(e);
  const missing = message.includes('Could not locate the bindings file');
  const otherNode = message.includes('NODE_MODULE_VERSION');
  if (!missing && !otherNode) return e;
  const what = missing
    ? 'has no native binary: its install script did not run'
    : `was built for another Node.js version than this one (${process.version})`;
  return new BatonError(
    'unavailable',
    `the SQLite driver (better-sqlite3) ${what}; reinstall Baton with \`${INSTALL_COMMAND}\` (see docs/install.md)`,
    {},
    { cause: e },
  );
}
