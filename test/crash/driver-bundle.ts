import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = join(root, 'test', 'crash', 'crash-driver.js');

const mtime = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : -1);

/**
 * The crash driver as one bundle, as the CLI is bundled (rolldown.config.js): the harnesses start hundreds of
 * children, and each would otherwise load the ~250 modules of dist/ one by one (about 0.35 s to its first
 * acknowledged commit on the 2-core machine; the bundle, about 0.2 s). One bundle per build of dist/ (named after
 * it, two levels below the package root as every dist/<folder>/ module, so the paths they resolve from their place
 * hold); test processes building it at once each build their own and the first to move it into place wins: a bundle
 * in place is never replaced while another process's children may be loading it.
 */
export async function crashDriver(): Promise<string> {
  const built = Math.round(Math.max(mtime(join(root, 'dist', 'service', 'index.js')), mtime(source)));
  const dir = join(root, 'dist', `crash-driver-${built}`);
  const entry = join(dir, 'crash-driver.js');
  if (existsSync(entry)) return entry;
  const mine = `${dir}.${process.pid}`;
  await build({
    input: { 'crash-driver': source },
    platform: 'node',
    logLevel: 'warn',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^(zod|commander)(\/|$)/.test(id),
    output: { dir: mine, format: 'esm', sourcemap: false },
  });
  try {
    renameSync(mine, dir);
  } catch {
    // another test process moved its bundle of the same build there first
    rmSync(mine, { recursive: true, force: true });
  }
  return entry;
}
