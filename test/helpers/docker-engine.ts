import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import Dockerode from 'dockerode';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const onPath = (name: string) =>
  (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, name)));

/** A Docker engine the tests started: its socket (as DOCKER_HOST) and how to stop it. */
export interface StartedEngine {
  host: string;
  dir: string;
  pid: number;
  stop(): Promise<void>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the dockerd whose pid file is in `dir` (TERM, then KILL after 20 s) and waits for it to exit. */
export async function stopEngineIn(dir: string): Promise<void> {
  const pidFile = join(dir, 'docker.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!pid || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const end = Date.now() + 20_000;
  while (alive(pid) && Date.now() < end) await sleep(100);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(50);
  unmountUnder(dir);
}

/** dockerd leaves mounts behind (its network namespace file): unmounted, deepest first, so the folder can go. */
function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((m) => m === dir || m.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) {
    try {
      execFileSync('umount', ['-l', m], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
}

/**
 * Starts a private Docker engine in `dir` (its own data root, exec root, socket and pid file; no bridge, no
 * iptables: containers use the host's network), detached so it outlives the test worker that started it. It needs
 * root and `dockerd` (Debian: `apt-get install docker.io`); without them it fails saying so.
 */
export async function startEngine(dir: string): Promise<StartedEngine> {
  if (!onPath('dockerd'))
    throw new Error(
      'the Docker executor tests need a Docker engine: dockerd is not installed (`apt-get install docker.io`), or set BATON_TEST_DOCKER_HOST to a running engine (unix:///var/run/docker.sock)',
    );
  if (process.getuid?.() !== 0)
    throw new Error(
      'the Docker executor tests start their own dockerd, which needs root: run them as root, or set BATON_TEST_DOCKER_HOST to a running engine you may use (unix:///var/run/docker.sock)',
    );
  mkdirSync(dir, { recursive: true });
  const socket = join(dir, 'docker.sock');
  const log = openSync(join(dir, 'dockerd.log'), 'a');
  const child = spawn(
    'dockerd',
    [
      '--data-root',
      join(dir, 'data'),
      '--exec-root',
      join(dir, 'exec'),
      '--pidfile',
      join(dir, 'docker.pid'),
      '--host',
      `unix://${socket}`,
      '--iptables=false',
      '--ip6tables=false',
      '--bridge=none',
      '--userland-proxy=false',
      '--shutdown-timeout',
      '5',
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  child.unref();
  closeSync(log);
  const host = `unix://${socket}`;
  const docker = new Dockerode({ socketPath: socket });
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || (child.pid !== undefined && !alive(child.pid)))
      throw new Error(
        `dockerd exited at start:\n${readFileSync(join(dir, 'dockerd.log'), 'utf8').slice(-3000)}`,
      );
    if (
      existsSync(socket) &&
      (await docker.ping().then(
        () => true,
        () => false,
      ))
    )
      break;
    if (Date.now() > end)
      throw new Error(
        `dockerd did not answer within 60 s:\n${readFileSync(join(dir, 'dockerd.log'), 'utf8').slice(-3000)}`,
      );
    await sleep(100);
  }
  return { host, dir, pid: child.pid ?? 0, stop: () => stopEngineIn(dir) };
}

/**
 * The contract's image, built here: `node` at /usr/bin/node and /usr/bin/env, with the libraries `ldd` lists for
 * them, and nothing else (no shell), imported through the engine's API (`POST /images/create?fromSrc=-`).
 */
export async function buildNodeImage(docker: Dockerode): Promise<string> {
  const node = realpathSync(process.execPath);
  const files = new Set<string>();
  for (const bin of [node, '/usr/bin/env']) {
    files.add(bin);
    for (const m of execFileSync('ldd', [bin], { encoding: 'utf8' }).matchAll(/(\/\S+)/g))
      if (m[1]) files.add(m[1]);
  }
  const tag = createHash('sha256')
    .update([process.version, ...files].join('\n'))
    .digest('hex')
    .slice(0, 12);
  const image = `baton-test-node:${tag}`;
  if (
    await docker
      .getImage(image)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  )
    return image;
  const root = mkdtempSync(join(tmpdir(), 'baton-image-'));
  try {
    for (const f of files) {
      const target = join(root, f === node ? '/usr/bin/node' : f);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(f, target);
      execFileSync('chmod', ['+x', target]);
    }
    const tar = spawn('tar', ['-C', root, '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const progress = await docker.importImage(tar.stdout, { repo: 'baton-test-node', tag });
    await new Promise<void>((resolve, reject) => {
      progress.on('end', resolve);
      progress.on('error', reject);
      progress.resume();
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  await docker.getImage(image).inspect();
  return image;
}

/** Where the engine of this run is described, once one worker started it (see test/setup/docker-global.ts). */
const readyFile = (dir: string) => join(dir, 'ready.json');

/**
 * One Docker engine for the whole test run, and the test image on it: `BATON_TEST_DOCKER_HOST` when set, else a
 * private dockerd started by the first test file that asks (the others wait for it), stopped by the global
 * teardown. Where none can run, this throws a clear error: the Docker tests fail, they never skip.
 */
export async function sharedDockerEngine(runDir: string): Promise<{ host: string; image: string }> {
  const given = process.env.BATON_TEST_DOCKER_HOST;
  if (given) {
    const docker = new Dockerode({ socketPath: given.replace(/^unix:\/\//, '') });
    return { host: given, image: await buildNodeImage(docker) };
  }
  const file = readyFile(runDir);
  let mine: boolean;
  try {
    mkdirSync(join(runDir, 'lock'));
    mine = true;
  } catch {
    mine = false;
  }
  if (mine) {
    let answer: { host: string; image: string } | { error: string };
    try {
      const engine = await startEngine(join(runDir, 'engine'));
      const image = await buildNodeImage(new Dockerode({ socketPath: engine.host.slice(7) }));
      answer = { host: engine.host, image };
    } catch (e) {
      answer = { error: (e as Error).message };
    }
    writeFileSync(file, JSON.stringify(answer));
  }
  const end = Date.now() + 180_000;
  while (!existsSync(file)) {
    if (Date.now() > end) throw new Error("timed out waiting for the test run's Docker engine to start");
    await sleep(100);
  }
  const answer = JSON.parse(readFileSync(file, 'utf8')) as
    { host: string; image: string } | { error: string };
  if ('error' in answer) throw new Error(answer.error);
  return answer;
}

/** A dockerode client for the tests' own checks (inspect, rm -f, stop), on the given DOCKER_HOST. */
export const dockerClient = (host: string) => new Dockerode({ socketPath: host.replace(/^unix:\/\//, '') });
