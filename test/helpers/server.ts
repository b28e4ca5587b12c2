import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batonBin } from './cli.js';
import { hermeticEnv } from './hermetic-env.js';

export interface ServerProcess {
  url: string;
  token: string;
  home: string;
  child: ChildProcess;
  /** What the server wrote on standard error so far. */
  stderr: () => string;
  /** How the server ended since it started listening ("exit code 1", "signal SIGKILL"), or null while it runs. */
  ended: () => string | null;
  /** The server's end and standard error, for a failed test's message. */
  report: () => string;
  /** fetch with the bearer token (unless `auth: false`) and JSON bodies. */
  api: (path: string, init?: RequestInit & { json?: unknown; auth?: boolean }) => Promise<Response>;
  stop: () => Promise<void>;
}

let oneIdentity: string | null = null;

/**
 * A git global config naming the identity makeRepo gives every repository (test@baton.invalid): a server started
 * outside the repositories (in its home) works as the one person whose work they hold, as on a person's own machine,
 * not as whatever identity the machine running the tests has globally.
 */
function personsGitConfig(): string {
  if (oneIdentity) return oneIdentity;
  const file = join(mkdtempSync(join(tmpdir(), 'baton-gitconfig-')), 'gitconfig');
  writeFileSync(file, '[user]\n\tname = Baton Test\n\temail = test@baton.invalid\n');
  oneIdentity = file;
  return file;
}

/**
 * Starts the built `baton serve --port 0` as a real child process and waits for its URL. Unless the test gives the
 * server a HOME or a git config of its own (a teammate's, or none), its git identity is makeRepo's (`personsGitConfig`).
 */
export function startServerProcess(
  home: string,
  opts: { args?: string[]; env?: Record<string, string | undefined>; cwd?: string; umask000?: boolean } = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const argv = [batonBin, 'serve', '--port', '0', ...(opts.args ?? [])];
    const spawnOpts = {
      cwd: opts.cwd ?? (opts.umask000 ? undefined : home),
      env: hermeticEnv({
        BATON_HOME: home,
        BATON_CHECK_RESPONSES: '1',
        ...(opts.env && ('HOME' in opts.env || 'GIT_CONFIG_GLOBAL' in opts.env)
          ? {}
          : { GIT_CONFIG_GLOBAL: personsGitConfig() }),
        ...opts.env,
      }),
      stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    };
    // under `umask 000` (through /bin/sh) when asked: files must get their modes whatever the umask
    const child = opts.umask000
      ? spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, ...argv], spawnOpts)
      : spawn(process.execPath, argv, spawnOpts);
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`baton serve did not start:\n${out}\n${err}`)), 20_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`baton serve exited with ${code}:\n${out}\n${err}`));
    });
    let started = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // once: what the server writes later (the line it stops with) must not take the listeners `stop` set
      if (started) return;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m?.[1]) return;
      started = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const url = m[1];
      let ended: string | null = null;
      child.once('exit', (code, signal) => (ended = signal ? `signal ${signal}` : `exit code ${code}`));
      // `--no-auth` creates no token file: the token is then empty (and not sent)
      const tokenFile = join(home, 'token');
      const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '';
      resolve({
        url,
        token,
        home,
        child,
        stderr: () => err,
        ended: () => ended,
        report: () => `baton serve: ${ended ?? 'still running'}; its standard error:\n${err || '(nothing)'}`,
        api: (path, init = {}) => {
          const headers = new Headers(init.headers);
          if (init.auth !== false && token) headers.set('authorization', `Bearer ${token}`);
          if (init.json !== undefined) headers.set('content-type', 'application/json');
          return fetch(url + path, {
            ...init,
            headers,
            body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
          });
        },
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
