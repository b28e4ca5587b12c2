import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';

/** `POST [/v1.NN]/containers/<id>/start`: the request that starts a container, seen in a connection's bytes. */
const startRequest = /^POST (\/v[\d.]+)?\/containers\/[^/ ]+\/start[? ]/m;

/**
 * A Docker engine socket in front of the real one that can hold back container starts: while `close()`d, the
 * request that starts a container waits in the proxy until `open()`, so a test sees Baton's `starting` state for
 * as long as it needs, without guessing how long a container takes to start.
 */
export async function gatedEngine(target: string, dir: string) {
  const path = join(dir, 'gate.sock');
  const sockets = new Set<Socket>();
  const waiting: (() => void)[] = [];
  let closed = false;
  let held = 0;
  const server = createServer((client) => {
    const upstream = connect(target.replace(/^unix:\/\//, ''));
    sockets.add(client);
    sockets.add(upstream);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (closed && startRequest.test(chunk.toString('latin1'))) {
        held += 1;
        client.pause();
        waiting.push(() => {
          upstream.write(chunk);
          client.resume();
        });
        return;
      }
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return {
    host: `unix://${path}`,
    /** How many container starts were held back so far. */
    held: () => held,
    close() {
      closed = true;
    },
    open() {
      closed = false;
      for (const go of waiting.splice(0)) go();
    },
    async stop() {
      this.open();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
