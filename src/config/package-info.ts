import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** package.json at the package root, two levels above `src/config/`, `dist/config/` and the CLI bundle in `dist/bin/`. */
const manifest = createRequire(import.meta.url)('../../package.json') as { name: string; version: string };

/** The npm package's name (`agent-baton`): what `npm install -g` and `npx` take. The command it installs is `baton`. */
export const PACKAGE_NAME = manifest.name;
export const PACKAGE_VERSION = manifest.version;

/**
 * How Baton is installed on a machine today, said wherever someone is told to (the `baton` command on the PATH): it is
 * not on the npm registry yet, where its package's name is not Baton's (docs/install.md).
 */
export const INSTALL_STEPS =
  "from a clone of Baton's repository with `npm ci && npm link` (it is not on the npm registry yet; docs/install.md)";

/** The package's folder (its `bin/baton.js`, `dist/`, `node_modules`), two levels above this module as above. */
export const packageRoot = (): string => fileURLToPath(new URL('../../', import.meta.url));
