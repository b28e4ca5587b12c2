import { invalidInput } from '../core/index.js';
import { isLoopback, normalizeOrigin, parseHostHeader } from '../config/request-guard.js';
import { settingReader, type Settings } from '../config/settings.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** Serve without a token (loopback only). */
  noAuth: boolean;
  maxBodyBytes: number;
  /** The largest WebSocket frame a client may send (a bigger one closes the socket with 1009). */
  maxFrameBytes?: number;
  /** Extra `Host` names the server answers to (behind a reverse proxy): `name` or `name:port`. */
  allowedHosts?: string[];
  /** Extra origins allowed to send state-changing requests and open `/ws`: `https://baton.example.com`. */
  allowedOrigins?: string[];
  /** Check every JSON response against its route's schema (BATON_CHECK_RESPONSES=1; the tests turn it on). */
  checkResponses?: boolean;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7420;
export const DEFAULT_MAX_BODY = 1024 * 1024;
export const DEFAULT_MAX_FRAME = 1024 * 1024;

export { isLoopback };

/**
 * `baton serve` settings, read by the one settings resolver (option > variable > config files > default): `host`,
 * `port`, `max_body_bytes`, `max_frame_bytes`, `allowed_hosts`, `allowed_origins`. Serving without a token is
 * refused on any non-loopback address.
 */
export function resolveServeOptions(
  o: {
    host?: string;
    port?: string;
    auth?: boolean;
    maxBody?: string;
    maxFrame?: string;
    allowHost?: string;
    allowOrigin?: string;
  },
  env: NodeJS.ProcessEnv,
  settings: Pick<Settings, 'configFiles'>,
): ServeOptions {
  const r = settingReader(o, env, settings);
  const host = r.text('host', DEFAULT_HOST);
  if (!host || /\s/.test(host)) throw r.invalid('host', 'is not a host name');
  const port = r.integer('port', DEFAULT_PORT, 0, 65535);
  const maxBodyBytes = r.integer('maxBody', DEFAULT_MAX_BODY, 1024, 2 ** 31, 'bytes');
  const maxFrameBytes = r.integer('maxFrame', DEFAULT_MAX_FRAME, 1024, 2 ** 31, 'bytes');
  const allowedHosts = r.list('allowHost');
  if (allowedHosts.some((h) => parseHostHeader(h) === null))
    throw r.invalid('allowHost', 'holds a value that is not a host name or host:port');
  const allowedOrigins = r.list('allowOrigin');
  if (allowedOrigins.some((x) => normalizeOrigin(x) === null))
    throw r.invalid(
      'allowOrigin',
      'holds a value that is not an http(s) origin like https://baton.example.com',
    );
  const noAuth = o.auth === false || r.onOff('noAuth', false);
  if (noAuth && !isLoopback(host))
    throw invalidInput(
      `refusing to serve ${host} without a token: --no-auth (variable BATON_NO_AUTH) is for loopback addresses only; drop it or bind 127.0.0.1 (option --host, variable BATON_HOST)`,
    );
  const checkResponses = r.onOff('checkResponses', false);
  return { host, port, noAuth, maxBodyBytes, maxFrameBytes, allowedHosts, allowedOrigins, checkResponses };
}
