import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { batonBin } from './cli.js';
import { hermeticEnv } from './hermetic-env.js';

export interface RawResponse {
  status: number;
  /** The response's headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: <T = Record<string, unknown>>() => T;
}

/**
 * One HTTP request exactly as given, like `curl -H`: the Host header included (fetch would not let a test forge
 * it), no Origin unless given.
 */
export function rawRequest(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port,
        method: opts.method ?? 'GET',
        path: opts.path ?? '/',
        headers: { host: u.host, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface StreamedResponse {
  /** The status line's code; 0 when no answer was read. */
  status: number;
  /** The response's headers, names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The socket's error (`EPIPE`, `ECONNRESET`), if it had one. */
  error: string | null;
  /** Whether the server closed the connection (a FIN, not a reset) before the client did. */
  closedByServer: boolean;
}

/**
 * One request over a raw socket whose body (`bodyBytes` of JSON-ish filler, with a Content-Length or chunked) is
 * written as fast as the socket takes it, without `Expect: 100-continue` and without waiting for an answer: the way
 * curl and most clients upload. Resolves when the connection is closed, with what was read back: for answers that
 * close it (`Connection: close`); the client stops sending and closes its side when the server closes its own, as
 * curl does.
 */
export function streamRequest(
  url: string,
  opts: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    bodyBytes: number;
    chunked?: boolean;
    /** Keep the client's side open when the server closes its own, and go on sending (a client that never stops). */
    ignoreClose?: boolean;
  },
): Promise<StreamedResponse> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: Number(u.port),
      allowHalfOpen: true,
    });
    let raw = Buffer.alloc(0);
    let error: string | null = null;
    let closedByServer = false;
    s.on('data', (d: Buffer) => (raw = Buffer.concat([raw, d])));
    s.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    s.on('end', () => {
      closedByServer = true;
      if (!opts.ignoreClose) s.end();
    });
    s.on('close', () => {
      const text = raw.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body =
        split < 0 ? '' : raw.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1')).toString();
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
      resolve({
        status: Number(/^HTTP\/1\.\d (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body,
        error,
        closedByServer,
      });
    });
    s.on('connect', () => {
      const head = [
        `${opts.method ?? 'POST'} ${opts.path} HTTP/1.1`,
        `Host: ${u.host}`,
        'Content-Type: application/json',
        opts.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${opts.bodyBytes}`,
        ...Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      s.write(head);
      const piece = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (
          !s.destroyed &&
          (opts.ignoreClose || !closedByServer) &&
          (opts.ignoreClose || sent < opts.bodyBytes)
        ) {
          const n = opts.ignoreClose ? piece.length : Math.min(piece.length, opts.bodyBytes - sent);
          sent += n;
          const data = opts.chunked
            ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')])
            : piece.subarray(0, n);
          if (!s.write(data)) return void s.once('drain', pump);
        }
        if (opts.chunked && !opts.ignoreClose && !closedByServer && !s.destroyed) s.write('0\r\n\r\n');
      };
      pump();
    });
  });
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = eol < 0 ? 0 : parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

export interface DaemonProcess {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stop: () => Promise<void>;
}

/**
 * The built `baton executor serve --port 0` as a real child process (under `umask 000` when asked, through
 * /bin/sh), waiting for its URL; BATON_EXECUTOR_TOKEN from the shell is never inherited.
 */
export function startDaemonProcess(
  home: string,
  opts: { args?: string[]; env?: Record<string, string | undefined>; umask000?: boolean } = {},
): Promise<DaemonProcess> {
  const argv = [batonBin, 'executor', 'serve', '--port', '0', ...(opts.args ?? [])];
  const child = opts.umask000
    ? spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, ...argv], { env: envOf() })
    : spawn(process.execPath, argv, { env: envOf() });
  function envOf() {
    return hermeticEnv({ BATON_HOME: home, ...opts.env });
  }
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`executor serve did not start:\n${out}\n${err}`)),
      20_000,
    );
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`executor serve exited with ${code}:\n${out}\n${err}`));
    });
    let started = false;
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      // once: what the executor writes later must not take the listener `stop` set
      if (started) return;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m?.[1]) return;
      started = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url: m[1],
        child,
        stdout: () => out,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
