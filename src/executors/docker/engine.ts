import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type Docker from 'dockerode';
import { BatonError } from '../../core/index.js';

/** Where the engine is: `DOCKER_HOST`, else the default socket (as the docker CLI and docker-modem look for it). */
export interface EngineAddress {
  /** A unix socket path, or null when DOCKER_HOST names a TCP/SSH engine (docker-modem reads it). */
  socketPath: string | null;
  /** How errors name it: `unix:///var/run/docker.sock (the default socket)`, `tcp://... (DOCKER_HOST)`. */
  shown: string;
}

export function engineAddress(env: NodeJS.ProcessEnv): EngineAddress {
  const given = env.DOCKER_HOST?.trim();
  if (!given) {
    const user = join(env.HOME ?? homedir(), '.docker', 'run', 'docker.sock');
    const socketPath = existsSync(user) ? user : '/var/run/docker.sock';
    return { socketPath, shown: `unix://${socketPath} (the default socket; DOCKER_HOST is not set)` };
  }
  if (given.startsWith('unix://'))
    return { socketPath: given.slice(7) || '/var/run/docker.sock', shown: `${given} (DOCKER_HOST)` };
  return { socketPath: null, shown: `${given} (DOCKER_HOST)` };
}

const onPath = (name: string, env: NodeJS.ProcessEnv) =>
  (env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));

/** A failure talking to the engine as a BatonError saying what to do; HTTP answers keep their status. */
export function engineError(e: unknown, address: EngineAddress, env: NodeJS.ProcessEnv): BatonError {
  if (BatonError.isInstance(e)) return e;
  const err = e as NodeJS.ErrnoException & { statusCode?: number; json?: { message?: string } };
  const code = err.code ?? '';
  const socketMissing = address.socketPath !== null && !existsSync(address.socketPath);
  if (socketMissing && !onPath('dockerd', env) && !onPath('docker', env))
    return new BatonError(
      'unavailable',
      `Docker is not installed (no docker or dockerd on the PATH, no engine at ${address.shown}): install it (e.g. \`apt-get install docker.io\`) and start it, or set DOCKER_HOST to a running engine's socket, or use --executor local`,
      { engine: address.shown },
    );
  if (socketMissing || code === 'ENOENT' || code === 'ECONNREFUSED')
    return new BatonError(
      'unavailable',
      `the Docker engine at ${address.shown} is not running: start it (\`sudo systemctl start docker\`, or \`dockerd\`), or set DOCKER_HOST to the socket of the one that runs`,
      { engine: address.shown },
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new BatonError(
      'unavailable',
      `permission denied on the Docker engine's socket ${address.shown}: run Baton as a user in the docker group (\`sudo usermod -aG docker $USER\`, then log in again) or as root`,
      { engine: address.shown },
    );
  if (err.name === 'AbortError' || err.name === 'TimeoutError')
    return new BatonError(
      'unavailable',
      `the Docker engine at ${address.shown} did not answer in time: check that it is healthy (\`docker info\`)`,
      { engine: address.shown },
    );
  if (typeof err.statusCode === 'number') {
    const message = err.json?.message ?? err.message;
    return new BatonError(
      err.statusCode === 404 ? 'not_found' : err.statusCode === 409 ? 'conflict' : 'unavailable',
      `the Docker engine at ${address.shown} answered ${err.statusCode}: ${message}`,
      { engine: address.shown, status: err.statusCode },
    );
  }
  return new BatonError(
    'unavailable',
    `cannot talk to the Docker engine at ${address.shown}: ${err.message ?? String(e)}`,
    { engine: address.shown },
  );
}

/** Splits `docker logs` output (the engine's multiplexed frames when the container has no TTY) into text. */
export function demuxLogs(buf: Buffer): string {
  let out = '';
  let at = 0;
  while (at + 8 <= buf.length && buf[at + 1] === 0 && buf[at + 2] === 0 && buf[at + 3] === 0) {
    const size = buf.readUInt32BE(at + 4);
    out += buf.subarray(at + 8, at + 8 + size).toString('utf8');
    at += 8 + size;
  }
  return at === 0 ? buf.toString('utf8') : out;
}

export type ContainerState = {
  id: string;
  name: string;
  image: string;
  labels: Record<string, string>;
  running: boolean;
  status: string;
  exitCode: number | null;
  env: string[];
  error: string | null;
};

/**
 * dockerode, an optional peer dependency (it would add about 12 MB to every install): installed next to Baton when
 * the Docker executor is used, else a BatonError saying so.
 */
export async function loadDockerode(name = 'dockerode'): Promise<typeof Docker> {
  try {
    return ((await import(name)) as { default: typeof Docker }).default;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw e;
    throw new BatonError(
      'unavailable',
      `the Docker executor needs the package dockerode, which is not installed: \`npm install -g ${name}\` beside a global agent-baton (or \`npm install ${name}\` in the project that has agent-baton), then run again; or use --executor local`,
      { package: name },
    );
  }
}

/**
 * The Docker engine's API on its socket, through dockerode (loaded on first use: commands that never touch Docker
 * do not pay for it). Every failure is a BatonError naming the engine and what to do.
 */
export class DockerEngine {
  readonly address: EngineAddress;
  private client: Promise<Docker> | null = null;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.address = engineAddress(env);
  }

  private docker(): Promise<Docker> {
    this.client ??= loadDockerode().then(
      (Dockerode) =>
        new Dockerode(this.address.socketPath ? { socketPath: this.address.socketPath } : undefined),
    );
    return this.client;
  }

  /** Runs one API call, turning its failure into a BatonError. */
  async call<T>(fn: (d: Docker) => Promise<T>): Promise<T> {
    try {
      return await fn(await this.docker());
    } catch (e) {
      throw engineError(e, this.address, this.env);
    }
  }

  /** The engine answers, or a BatonError says why not (not installed, not running, no permission). */
  async ping(): Promise<void> {
    // dockerode's ping takes an abort signal; its typings only know the callback form with options.
    type Ping = { ping(o: { abortSignal: AbortSignal }): Promise<unknown> };
    await this.call((d) => (d as unknown as Ping).ping({ abortSignal: AbortSignal.timeout(10_000) }));
  }

  /** Whether the image exists in the engine (Baton never pulls). */
  async hasImage(image: string): Promise<boolean> {
    try {
      await this.call((d) => d.getImage(image).inspect());
      return true;
    } catch (e) {
      if (BatonError.isInstance(e) && e.code === 'not_found') return false;
      throw e;
    }
  }

  /** Containers (running or not) carrying every one of the labels. */
  async findByLabels(labels: Record<string, string>): Promise<string[]> {
    const filters = JSON.stringify({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) });
    const list = await this.call((d) => d.listContainers({ all: true, filters }));
    return list.map((c) => c.Id);
  }

  /** The container's state, or null when the engine has no such container. */
  async inspect(id: string): Promise<ContainerState | null> {
    try {
      const c = await this.call((d) => d.getContainer(id).inspect());
      return {
        id: c.Id,
        name: c.Name.replace(/^\//, ''),
        image: c.Config.Image,
        labels: c.Config.Labels ?? {},
        running: c.State.Running,
        status: c.State.Status,
        exitCode: c.State.Running ? null : c.State.ExitCode,
        env: c.Config.Env ?? [],
        error: c.State.Error || null,
      };
    } catch (e) {
      if (BatonError.isInstance(e) && e.code === 'not_found') return null;
      throw e;
    }
  }

  async create(options: Docker.ContainerCreateOptions): Promise<string> {
    return this.call(async (d) => (await d.createContainer(options)).id);
  }

  async start(id: string): Promise<void> {
    await this.call((d) => d.getContainer(id).start());
  }

  /** The last `tail` lines of the container's output (stdout and stderr), as text. */
  async logs(id: string, tail = 20): Promise<string> {
    const buf = await this.call((d) =>
      d.getContainer(id).logs({ stdout: true, stderr: true, follow: false, tail }),
    );
    return demuxLogs(Buffer.isBuffer(buf) ? buf : Buffer.from(String(buf)));
  }

  /** Removes the container, running or not; one already gone is fine. */
  async remove(id: string): Promise<void> {
    try {
      await this.call((d) => d.getContainer(id).remove({ force: true, v: true }));
    } catch (e) {
      if (BatonError.isInstance(e) && e.code === 'not_found') return;
      throw e;
    }
  }

  /** Resolves when the container stops running (or is removed); rejects when aborted or the engine is lost. */
  async waitStopped(id: string, signal: AbortSignal): Promise<number | null> {
    const r = (await this.call((d) =>
      d.getContainer(id).wait({ condition: 'not-running', abortSignal: signal }),
    )) as { StatusCode?: number } | null;
    return r?.StatusCode ?? null;
  }
}
