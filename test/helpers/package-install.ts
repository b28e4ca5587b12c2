import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** The environment of a child npm: this process's, without the npm_* variables an enclosing `npm test` sets. */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, ...extra };
}

export function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: opts.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

/** `npm pack` of the repository as built (`npm run build` first, as for every end-to-end test): the tarball's path. */
export async function packRepository(into: string): Promise<string> {
  const r = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], {
    cwd: repoRoot,
    env: npmEnv(),
  });
  if (r.code !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as { filename: string }[];
  return join(into, info!.filename);
}

/**
 * better-sqlite3's prebuilt binary for this platform and Node, made from the repository's own build of it, in a
 * folder that prebuild-install reads before it tries to download (`npm_config_better_sqlite3_local_prebuilds`).
 * The install then takes the prebuilt path a user's machine takes, without the network and without compiling.
 */
export async function localPrebuild(into: string): Promise<Record<string, string>> {
  const dir = join(repoRoot, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  const binary = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) throw new Error(`no built better-sqlite3 at ${binary}: run npm ci first`);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const r = await run('tar', ['-czf', join(into, name), '-C', dir, 'build/Release/better_sqlite3.node'], {
    cwd: into,
  });
  if (r.code !== 0) throw new Error(`tar failed: ${r.stderr}`);
  return { npm_config_better_sqlite3_local_prebuilds: into };
}

/** Disk space a folder takes, as `du` counts it (allocated blocks, each hard-linked file once). */
export function diskUsage(dir: string): number {
  const seen = new Set<string>();
  let bytes = 0;
  const walk = (path: string) => {
    const st = lstatSync(path);
    const key = `${st.dev}:${st.ino}`;
    if (seen.has(key)) return;
    seen.add(key);
    bytes += st.blocks * 512;
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return bytes;
}
