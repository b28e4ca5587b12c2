import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = join(root, 'test', 'crash', 'crash-driver.js');
/** Two levels below the package root, as every dist/<folder>/ module: paths they resolve from their place hold. */
const dir = join(root, 'dist', 'crash-driver');
const entry = join(dir, 'crash-driver.js');

const mtime = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : -1);

/**
 * The crash driver as one bundle, as the CLI is bundled (rolldown.config.js): the harnesses start hundreds of
 * children, and each would otherwise load the ~250 modules of dist/ one by one (about 0.35 s to its first
 * acknowledged commit on the 2-core machine; the bundle, about 0.2 s). Built once after each `npm run build` (which
 * empties dist/), into a folder of its own: a test process that loses the race to another uses the other's.
 */
export async function crashDriver(): Promise<string> {
  const built = Math.max(mtime(join(root, 'dist', 'service', 'index.js')), mtime(source));
  if (mtime(entry) >= built) return entry;
  const mine = `${dir}.${process.pid}`;
  await build({
    input: { 'crash-driver': source },
    platform: 'node',
    logLevel: 'warn',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^(zod|commander)(\/|$)/.test(id),
    output: { dir: mine, format: 'esm', sourcemap: false },
  });
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(mine, dir);
  } catch {
    // another test process put its bundle there first: the same bundle
    rmSync(mine, { recursive: true, force: true });
  }
  return entry;
}
