import { serve as honoServe } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { LocalClient } from '../client/local-client.js';
import type { BatonService } from '../service/index.js';
import { createApp, withUnprefixedApi } from './app.js';
import type { AgentWatch, ReadBeforeContext } from './api/define.js';
import { requestGuard } from '../config/request-guard.js';
import { ensureToken, liveTokenFile, tokenPath } from '../config/token-file.js';
import { lingerOnUnreadBodies } from '../config/linger.js';
import { Metrics } from './http/metrics.js';
import { EventTail } from './live/event-tail.js';
import { registerWsRoute } from './live/ws-route.js';
import { WsHub } from './live/ws-hub.js';
import { DEFAULT_MAX_FRAME, isLoopback, type ServeOptions } from './serve-options.js';
import { PACKAGE_VERSION } from '../config/package-info.js';
import { invalidInput } from '../core/index.js';

/** Whether a Baton server answers at `url` (its health check says so). */
async function batonAt(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1500) });
    return ((await res.json()) as { service?: unknown }).service === 'baton';
  } catch {
    return false;
  }
}

/** Why the server could not listen, with what to do: the port taken (by another `baton serve`?) or not allowed. */
async function listenFailure(e: NodeJS.ErrnoException, host: string, port: number): Promise<Error> {
  if (e.code === 'EADDRINUSE') {
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return invalidInput(
      (await batonAt(url))
        ? `port ${port} on ${host} is in use by a \`baton serve\` already running there: commands use it with --server ${url} (or BATON_URL), its dashboard is at ${url}/; stop it first to start another, or choose another port with --port / BATON_PORT`
        : `port ${port} on ${host} is in use by another program (no Baton server answers there): choose another port with --port / BATON_PORT`,
    );
  }
  if (e.code === 'EACCES')
    return invalidInput(
      `port ${port} on ${host} is not open to this user (ports below 1024 need root): choose another with --port`,
    );
  if (e.code === 'EADDRNOTAVAIL')
    return invalidInput(
      `${host} is not an address of this machine: give one of its own with --host (127.0.0.1 by default)`,
    );
  return e;
}

export const defaultWebDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  token: string | null;
  close(): Promise<void>;
}

/**
 * Starts `baton serve`: the API over the same service the CLI uses, live events from the store's log, and the
 * dashboard. The token is created under `home` at first start; without it, only a loopback bind is allowed.
 */
export async function startServer(
  service: BatonService,
  options: ServeOptions & {
    home: string;
    webDir?: string;
    version?: string;
    pollMs?: number;
    /** Work done after the server listens but before `/readyz` answers ready (startup recovery). */
    beforeReady?: () => Promise<void>;
    /** What the hooks of this machine saw of a workflow's agents, for its status (api/define.ts). */
    watch?: AgentWatch;
    /** Reads a workflow's unread transcripts of this machine before its context is compiled (api/define.ts). */
    readFirst?: ReadBeforeContext;
    /** The git identity of the person the server serves: whose workflows are theirs (api/define.ts). */
    you?: () => Promise<string | null>;
  },
): Promise<RunningServer> {
  const token = options.noAuth ? null : ensureToken(options.home);
  // a token rotated while the server runs (`baton token --rotate`) is the one it takes from the next request on
  const tokenNow = token === null ? null : liveTokenFile(tokenPath(options.home), token);
  if (token === null && !isLoopback(options.host))
    throw invalidInput(
      `refusing to serve ${options.host} without a token: serving without one is for loopback addresses only`,
    );
  const client = new LocalClient(service);
  const metrics = new Metrics();
  let hub: WsHub | null = null;
  const tail = new EventTail(
    service.events,
    (events) => {
      for (const e of events) metrics.eventAppended(e.type);
      hub?.broadcast(events);
    },
    options.pollMs ?? 150,
  );
  hub = new WsHub(service.events, () => tail.position);
  let ready = false;
  let port = options.port;
  const guard = requestGuard({
    bindHost: options.host,
    port: () => port,
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
  });
  const app = createApp({
    client,
    events: service.events,
    token: tokenNow,
    metrics,
    webDir: options.webDir ?? defaultWebDir,
    maxBodyBytes: options.maxBodyBytes,
    guard,
    ready: () => ready,
    version: options.version ?? PACKAGE_VERSION,
    checkResponses: options.checkResponses,
    ...(options.watch ? { watch: options.watch } : {}),
    ...(options.readFirst ? { readFirst: options.readFirst } : {}),
    ...(options.you ? { you: options.you } : {}),
    actingAs: (actor, work) => service.runner.actingAs(actor, work),
    askedBy: (identity, work) => service.askedBy.run(identity, work),
  });
  metrics.gauge('baton_workflows', 'Workflows by status.', async () => {
    const counts = new Map<string, number>();
    for (const w of await service.queries.list()) counts.set(w.status, (counts.get(w.status) ?? 0) + 1);
    return [...counts].map(([status, n]) => [{ status }, n]);
  });
  metrics.gauge('baton_ws_clients', 'Connected WebSocket subscribers.', async () => [[{}, hub?.size ?? 0]]);
  metrics.gauge('baton_ws_queued_events', 'Live events queued for subscribers still replaying.', async () => [
    [{}, hub?.queued ?? 0],
  ]);
  const nodeWs = createNodeWebSocket({ app });
  const wsOptions = nodeWs.wss.options as { handleProtocols?: unknown; maxPayload?: number };
  // Browsers pass the token as a subprotocol beside `baton.v1`; the handshake answers with `baton.v1`, never the token.
  wsOptions.handleProtocols = (protocols: Set<string>) => (protocols.has('baton.v1') ? 'baton.v1' : false);
  // A frame from a client bigger than this closes its socket with 1009 (ws's default would be 100 MiB).
  wsOptions.maxPayload = options.maxFrameBytes ?? DEFAULT_MAX_FRAME;
  registerWsRoute(
    app,
    nodeWs.upgradeWebSocket,
    hub,
    async (id) => (await service.store.loadState(id)) !== null,
    tokenNow !== null,
  );
  const listener = () => void tail.kick();
  service.runner.listeners.add(listener);
  await tail.start();

  const server = await new Promise<Server>((resolve, reject) => {
    const s = honoServe({ fetch: withUnprefixedApi(app), hostname: options.host, port: options.port }, () =>
      resolve(s as Server),
    ) as Server;
    s.once(
      'error',
      (e: NodeJS.ErrnoException) => void listenFailure(e, options.host, options.port).then(reject),
    );
  });
  port = (server.address() as AddressInfo).port;
  // a 413 (or any answer) sent before the request's body was read reaches a client still sending it
  lingerOnUnreadBodies(server);
  // Node leaves a socket it hands to `upgrade` without an error listener, and node-ws awaits the app before ws takes
  // the socket over (or writes a refusal to it): a client that resets its connection meanwhile (a tab closed as the
  // dashboard connects) would raise an uncaught error that ends the server. Such an error closes that socket alone.
  server.on('upgrade', (_request: IncomingMessage, socket: Duplex) =>
    socket.on('error', () => socket.destroy()),
  );
  nodeWs.injectWebSocket(server);
  if (options.beforeReady) {
    try {
      await options.beforeReady();
    } catch (e) {
      service.runner.listeners.delete(listener);
      await tail.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw e;
    }
  }
  // A long-lived process keeps the Go Team auto-save going (every 30 s for running workflows) and takes requested
  // pauses that are due (their timeout passed, or their agent was cut off mid-turn) even when no command arrives.
  service.live.startAutoSave();
  // a failure is said once while it stays the same (the ticker tries again every 5 s)
  let tickerFailure: string | null = null;
  const pauseTicker = setInterval(
    () =>
      void service
        .settlePendingPauses()
        .then(() => (tickerFailure = null))
        .catch((e: Error) => {
          const line = `could not take the requested pauses that are due: ${e.message} (tried again every 5 s)`;
          if (line !== tickerFailure) service.options.watch?.notice?.(line);
          tickerFailure = line;
        }),
    5_000,
  );
  pauseTicker.unref();
  // a token rotated while WebSockets are open closes them (they were let in with the old one), without a request
  const tokenWatch = tokenNow && setInterval(() => hub?.closeStale(tokenNow()), 1_000);
  tokenWatch?.unref();
  ready = true;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    host: options.host,
    port,
    token,
    async close() {
      ready = false;
      clearInterval(pauseTicker);
      if (tokenWatch) clearInterval(tokenWatch);
      await service.live.stop();
      service.runner.listeners.delete(listener);
      hub?.closeAll();
      await tail.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
    },
  };
}
