import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { lingerOnUnreadBodies } from '../../config/linger.js';
import { requestGuard } from '../../config/request-guard.js';
import { sameToken } from '../../config/token-file.js';
import { spawnAgent } from '../local/local-executor.js';
import type { AgentProcess, ExitStatus, LaunchSpec } from '../../service/runtime/runtime-ports.js';
import { OutputRing } from './output-ring.js';
import { invalidInput } from '../../core/index.js';

interface Run {
  id: string;
  proc: AgentProcess;
  output: OutputRing;
  exit: ExitStatus | null;
  waiters: Set<() => void>;
}

export interface ExecutorDaemonOptions {
  host: string;
  port: number;
  /** Every request must carry `Authorization: Bearer <token>` (src/config/executor-token.ts resolves it). */
  token: string;
  /** Extra `Host` names the daemon answers to (`name` or `name:port`). */
  allowedHosts?: readonly string[];
  /** Characters of output kept per run (the last ones). */
  maxOutput?: number;
  /** Finished runs remembered; the oldest are forgotten beyond this. */
  keepFinished?: number;
}

export const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;
export const DEFAULT_KEEP_FINISHED = 100;
const MAX_BODY = 4 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request comes with a body (a length over 0, or chunks): a GET's poll does not. */
const sendsBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** What a 413 says: the daemon's limit, in bytes and MiB. */
const tooLarge = () =>
  `request body over the executor daemon's limit of ${MAX_BODY} bytes (${MAX_BODY / 1024 / 1024} MiB)`;

/**
 * The JSON body of a POST; only `application/json` is accepted (no cross-site "simple" request gets this far). A body
 * over the limit is refused (413) by its Content-Length before any of it is read, else once past the limit, where
 * reading stops: the answer closes the connection, gently (src/config/linger.ts), and what still comes is dropped.
 */
function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    return Promise.reject(new HttpError(415, 'send the body as Content-Type: application/json'));
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY)
    return Promise.reject(new HttpError(413, tooLarge()));
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) return void chunks.push(c);
      req.off('data', onData).off('end', onEnd).pause();
      reject(new HttpError(413, tooLarge()));
    };
    const onEnd = () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        reject(new HttpError(400, 'the body is not JSON'));
      }
    };
    req.on('data', onData).on('end', onEnd);
  });
}

function validSpec(b: unknown): LaunchSpec | null {
  const s = b as Partial<LaunchSpec> | null;
  if (!s || typeof s.bin !== 'string' || !Array.isArray(s.args) || typeof s.cwd !== 'string') return null;
  return {
    bin: s.bin,
    args: s.args.map(String),
    cwd: s.cwd,
    env: (s.env ?? {}) as Record<string, string>,
    stdin: s.stdin ?? null,
  };
}

/**
 * `baton executor serve`: a small agent host. Agents it launches are its children, so they keep running when the
 * Baton server restarts; the last `maxOutput` characters of each run's output are kept, so a reconnecting server
 * reads the stream again from an offset (told when that offset was dropped). Every request needs the token; the
 * `Host` must name the daemon, a request with a foreign `Origin` is refused, and POST bodies must be JSON.
 * HTTP: GET /health, GET /capabilities, POST /launch, POST /resume (a launch with the agent's resume arguments),
 * GET /runs/:id, POST /runs/:id/stop, GET /runs/:id/events?offset=N (NDJSON until the run exits).
 */
export async function startExecutorDaemon(opts: ExecutorDaemonOptions) {
  if (!opts.token)
    throw invalidInput('the executor daemon needs a token (BATON_EXECUTOR_TOKEN or `baton executor token`)');
  const maxOutput = opts.maxOutput ?? DEFAULT_MAX_OUTPUT;
  const keepFinished = opts.keepFinished ?? DEFAULT_KEEP_FINISHED;
  const runs = new Map<string, Run>();
  const finished: string[] = [];
  let port = opts.port;
  const guard = requestGuard({ bindHost: opts.host, port: () => port, allowedHosts: opts.allowedHosts });
  // The agents get the daemon's environment without its secret.
  const { BATON_EXECUTOR_TOKEN: _secret, ...childEnv } = process.env;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    // an answer that leaves a body unread (a refusal before it was read: 401, 403, 404, 413, 415) closes the
    // connection, so that Node does not read the rest of it, however large, to keep the connection alive
    if (sendsBody(res.req) && !res.req.complete) res.setHeader('connection', 'close');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const launch = (spec: LaunchSpec): Run => {
    const id = `run-${randomBytes(5).toString('hex')}`;
    const proc = spawnAgent(spec, childEnv);
    const run: Run = { id, proc, output: new OutputRing(maxOutput), exit: null, waiters: new Set() };
    const wake = () => {
      for (const w of [...run.waiters]) w();
    };
    proc.onOutput((d) => {
      run.output.append(d);
      wake();
    });
    void proc.wait().then((e) => {
      run.exit = e;
      finished.push(id);
      while (finished.length > keepFinished) runs.delete(finished.shift() ?? '');
      wake();
    });
    runs.set(id, run);
    return run;
  };

  const events = (req: IncomingMessage, res: ServerResponse, run: Run, from: number) => {
    let offset = from;
    let draining = false;
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const flush = () => {
      if (draining) return;
      const out = run.output;
      if (offset < out.first) {
        res.write(
          JSON.stringify({ type: 'truncated', offset, first_kept: out.first, dropped: out.first - offset }) +
            '\n',
        );
        offset = out.first;
      }
      if (offset < out.end) {
        const part = out.from(offset);
        offset = out.end;
        if (!res.write(JSON.stringify({ type: 'output', offset: part.offset, data: part.data }) + '\n')) {
          // A slow reader: wait for it rather than buffer the output twice (the ring keeps it meanwhile).
          draining = true;
          res.once('drain', () => {
            draining = false;
            flush();
          });
          return;
        }
      }
      if (run.exit) {
        res.end(JSON.stringify({ type: 'exit', ...run.exit }) + '\n');
        run.waiters.delete(flush);
      }
    };
    run.waiters.add(flush);
    req.on('close', () => run.waiters.delete(flush));
    flush();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    const refused = guard.host(host) ?? guard.origin(req.headers.origin, host);
    if (refused) return json(res, 403, { error: refused });
    const auth = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!auth || !sameToken(auth, opts.token)) {
      res.setHeader('www-authenticate', 'Bearer realm="baton-executor"');
      return json(res, 401, {
        error: auth ? 'wrong executor token' : 'missing executor token (Authorization: Bearer <token>)',
      });
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (req.method === 'GET' && url.pathname === '/health')
      return json(res, 200, { ok: true, runs: runs.size });
    if (req.method === 'GET' && url.pathname === '/capabilities')
      return json(res, 200, { supports_session_resume: true, supports_workspace_only: true });
    if (req.method === 'POST' && (url.pathname === '/launch' || url.pathname === '/resume')) {
      const spec = validSpec(body);
      if (!spec) return json(res, 400, { error: 'expected {bin, args[], cwd, env?, stdin?}' });
      const run = launch(spec);
      return json(res, 201, { run_id: run.id, pid: run.proc.pid, start_time: run.proc.startTime });
    }
    const run = parts[0] === 'runs' && parts[1] ? runs.get(parts[1]) : undefined;
    if (!run) return json(res, 404, { error: 'no such run' });
    if (req.method === 'GET' && parts.length === 2)
      return json(res, 200, {
        run_id: run.id,
        running: run.exit === null,
        exit: run.exit,
        bytes: run.output.end,
        first_kept: run.output.first,
        kept: run.output.kept,
        max_kept: maxOutput,
      });
    if (req.method === 'POST' && parts[2] === 'stop') {
      await run.proc.stop();
      return json(res, 200, { stopping: true });
    }
    if (req.method === 'GET' && parts[2] === 'events')
      return events(req, res, run, Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0));
    return json(res, 404, { error: 'not found' });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (res.headersSent) return void res.end();
      json(res, e instanceof HttpError ? e.status : 500, { error: e.message });
    });
  });
  // a 413 sent before the body was read reaches a client still sending it, as `baton serve`'s does
  lingerOnUnreadBodies(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
