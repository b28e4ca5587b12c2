import { packageRoot } from '../config/package-info.js';
import { BatonError } from '../core/errors.js';

/**
 * Opening a SQLite file fails this way when better-sqlite3's native binary is missing (its install script did not
 * run: npm 12 runs a dependency's install script only when allowed) or was built for another Node.js. Either is
 * said in one line with the command that fixes it, whichever way Baton was installed (a clone, a global install):
 * rebuilding the driver in Baton's own folder; any other error is returned as it is.
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
    `the SQLite driver (better-sqlite3) ${what}; rebuild it in Baton's folder with \`cd ${packageRoot().replace(/\/+$/, '')} && npm rebuild better-sqlite3\` (see docs/install.md)`,
    {},
    { cause: e },
  );
}
