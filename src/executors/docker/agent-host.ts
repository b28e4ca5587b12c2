import { randomBytes } from 'node:crypto';
import { BatonError } from '../../core/index.js';
import type { ExecutorRow } from '../../service/runtime/runtime-ports.js';
import { RemoteExecutor } from '../remote/remote-executor.js';
import { containerOptions, TOKEN_VARIABLE } from './container-spec.js';
import type { ContainerState, DockerEngine } from './engine.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A running container of one session and its agent host, reached over HTTP with the container's token. */
export interface Placement {
  containerId: string;
  name: string;
  image: string;
  endpoint: string;
  remote: RemoteExecutor;
}

/** The last lines of a container's output, for error messages. */
export async function lastLines(engine: DockerEngine, id: string, n = 20): Promise<string> {
  const text = await engine.logs(id, n).catch(() => '');
  const clipped = text.trim().slice(-2000);
  return clipped ? `; its last output:\n${clipped}` : '; it printed nothing';
}

/** The agent host's URL: the first line `baton --json executor serve` prints (`{"url": ...}`). */
export function urlFromLogs(text: string): string | null {
  for (const line of text.split('\n')) {
    try {
      const url = (JSON.parse(line) as { url?: unknown }).url;
      if (typeof url === 'string' && /^http:\/\/127\.0\.0\.1:\d+$/.test(url)) return url;
    } catch {
      // not the daemon's JSON line
    }
  }
  return null;
}

const credential = (name: string, token: string | null) => ({
  token,
  source: `the variable ${TOKEN_VARIABLE} of the container ${name}`,
  hint: `Baton sets it when it creates the container; remove a container Baton did not create (\`docker rm -f ${name}\`)`,
});

/** Connects to the agent host of a running container Baton created: its URL from its output, its token from its env. */
export async function connectTo(engine: DockerEngine, c: ContainerState): Promise<Placement> {
  const token =
    c.env.find((e) => e.startsWith(`${TOKEN_VARIABLE}=`))?.slice(TOKEN_VARIABLE.length + 1) ?? null;
  const endpoint = urlFromLogs(await engine.logs(c.id, 1000));
  if (!endpoint)
    throw new BatonError(
      'unavailable',
      `the container ${c.name} runs, but its agent host never said where it listens${await lastLines(engine, c.id)}`,
      { container_id: c.id },
    );
  return {
    containerId: c.id,
    name: c.name,
    image: c.image,
    endpoint,
    remote: new RemoteExecutor(endpoint, credential(c.name, token)),
  };
}

/** Why a container stopped, for the session's reason: its exit code and last lines. */
export async function stoppedReason(engine: DockerEngine, c: ContainerState, what: string): Promise<string> {
  return `${what}: the container ${c.name} (${c.id.slice(0, 12)}) is ${c.status}, exit code ${c.exitCode ?? 'unknown'}${c.error ? ` (${c.error})` : ''}${await lastLines(engine, c.id)}`;
}

const needsNode = (image: string) =>
  `the image ${image} must have node (20 or newer) at /usr/bin/node and /usr/bin/env: Baton runs its agent host with them`;

/**
 * Creates and starts the container of a session, waits for its agent host to listen and answer. Any failure
 * removes the container again (nothing half-created is left) and says why, with the container's last output.
 */
export async function startAgentHost(
  engine: DockerEngine,
  input: {
    row: ExecutorRow;
    image: string;
    user: string | null;
    stores?: readonly string[];
    env?: readonly string[];
    readyMs?: number;
  },
): Promise<Placement> {
  const token = randomBytes(24).toString('base64url');
  const options = containerOptions({
    row: input.row,
    image: input.image,
    token,
    user: input.user,
    stores: input.stores,
    env: input.env,
  });
  const name = options.name ?? input.row.id;
  const id = await engine.create(options).catch((e: unknown) => {
    if (BatonError.isInstance(e) && e.code === 'conflict')
      throw new BatonError(
        'conflict',
        `a container named ${name} already exists and Baton did not create it for this session: remove or rename it (\`docker rm -f ${name}\`) and run again`,
        { container: name },
      );
    throw e;
  });
  try {
    await engine.start(id).catch((e: Error) => {
      throw /\/usr\/bin\/(node|env)|executable file not found|no such file/i.test(e.message)
        ? new BatonError('invalid_input', `${needsNode(input.image)} (the engine said: ${e.message})`)
        : e;
    });
    const deadline = Date.now() + (input.readyMs ?? 30_000);
    for (;;) {
      const c = await engine.inspect(id);
      if (!c) throw new BatonError('unavailable', `the container ${name} was removed while it started`);
      if (!c.running)
        throw new BatonError(
          'unavailable',
          `${await stoppedReason(engine, c, 'the agent host did not start')}\n(${needsNode(input.image)}.)`,
          { container_id: id, exit_code: c.exitCode },
        );
      const endpoint = urlFromLogs(await engine.logs(id, 1000));
      if (endpoint) {
        const placement = { ...(await connectTo(engine, c)), endpoint };
        if (await placement.remote.health()) return placement;
        throw new BatonError(
          'unavailable',
          `the agent host in the container ${name} listens on ${endpoint} but does not answer${await lastLines(engine, id)}`,
        );
      }
      if (Date.now() > deadline)
        throw new BatonError(
          'unavailable',
          `the agent host in the container ${name} did not start listening within ${Math.round((input.readyMs ?? 30_000) / 1000)} s${await lastLines(engine, id)}`,
        );
      await sleep(100);
    }
  } catch (e) {
    await engine.remove(id).catch(() => undefined);
    throw e;
  }
}
