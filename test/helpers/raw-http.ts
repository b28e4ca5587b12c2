import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { batonBin } from './cli.js';
import { hermeticEnv } from './hermetic-env.js';

export interface RawResponse {
  status: number;
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
