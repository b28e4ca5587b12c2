import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { spawnAgent } from '../local/local-executor.js';
import type { AgentProcess, ExitStatus, LaunchSpec } from '../../service/runtime/runtime-ports.js';

interface Run {
  id: string;
  proc: AgentProcess;
  output: string;
  exit: ExitStatus | null;
  waiters: Set<() => void>;
}

const MAX_BODY = 4 * 1024 * 1024;

/**
 * `baton executor serve`: a small agent host. Agents it launches are its children, so they keep running when the
 * Baton server restarts; their output is buffered so a reconnecting server reads the stream again from any offset.
 * HTTP: GET /health, GET /capabilities, POST /launch, POST /resume (a launch with the agent's resume arguments),
 * GET /runs/:id, POST /runs/:id/stop, GET /runs/:id/events?offset=N (NDJSON until the run exits).
 */
export async function startExecutorDaemon(opts: { host: string; port: number; token?: string | null }) {
  const runs = new Map<string, Run>();
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<unknown>((resolve, reject) => {
      let size = 0;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) reject(new Error('body too large'));
        else chunks.push(c);
      });
      req.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        } catch {
          reject(new Error('the body is not JSON'));
        }
      });
    });
  const launch = (spec: LaunchSpec): Run => {
    const id = `run-${randomBytes(5).toString('hex')}`;
    const proc = spawnAgent(spec);
    const run: Run = { id, proc, output: '', exit: null, waiters: new Set() };
    const wake = () => {
      for (const w of run.waiters) w();
    };
    proc.onOutput((d) => {
      run.output += d;
      wake();
    });
    void proc.wait().then((e) => {
      run.exit = e;
      wake();
    });
    runs.set(id, run);
    return run;
  };
  const validSpec = (b: unknown): LaunchSpec | null => {
    const s = b as Partial<LaunchSpec> | null;
    if (!s || typeof s.bin !== 'string' || !Array.isArray(s.args) || typeof s.cwd !== 'string') return null;
    return {
      bin: s.bin,
      args: s.args.map(String),
      cwd: s.cwd,
      env: (s.env ?? {}) as Record<string, string>,
      stdin: s.stdin ?? null,
    };
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`)
        return json(res, 401, { error: 'unauthorized' });
      const url = new URL(req.url ?? '/', 'http://x');
      const parts = url.pathname.split('/').filter(Boolean);
      if (req.method === 'GET' && url.pathname === '/health')
        return json(res, 200, { ok: true, runs: runs.size });
      if (req.method === 'GET' && url.pathname === '/capabilities')
        return json(res, 200, { supports_session_resume: true, supports_workspace_only: true });
      if (req.method === 'POST' && (url.pathname === '/launch' || url.pathname === '/resume')) {
        const spec = validSpec(await readBody(req).catch(() => null));
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
          bytes: run.output.length,
        });
      if (req.method === 'POST' && parts[2] === 'stop') {
        await run.proc.stop();
        return json(res, 200, { stopping: true });
      }
      if (req.method === 'GET' && parts[2] === 'events') {
        let offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const flush = () => {
          if (offset < run.output.length) {
            res.write(JSON.stringify({ type: 'output', offset, data: run.output.slice(offset) }) + '\n');
            offset = run.output.length;
          }
          if (run.exit) {
            res.end(JSON.stringify({ type: 'exit', ...run.exit }) + '\n');
            run.waiters.delete(flush);
          }
        };
        run.waiters.add(flush);
        req.on('close', () => run.waiters.delete(flush));
        flush();
        return;
      }
      return json(res, 404, { error: 'not found' });
    })().catch((e: Error) => json(res, 500, { error: e.message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host}:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
