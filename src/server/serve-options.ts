import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { invalidInput } from '../core/index.js';
import { isLoopback, listSetting, normalizeOrigin, parseHostHeader } from '../config/request-guard.js';
import { readConfigFile } from '../config/settings.js';

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
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7420;
export const DEFAULT_MAX_BODY = 1024 * 1024;
export const DEFAULT_MAX_FRAME = 1024 * 1024;

export { isLoopback };

/**
 * `baton serve` settings: option > environment variable > `$BATON_HOME/config.json` (`host`, `port`,
 * `max_body_bytes`, `max_frame_bytes`, `allowed_hosts`, `allowed_origins`) > default. Serving without a token is
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
  home: string,
): ServeOptions {
  const file = join(home, 'config.json');
  const config = existsSync(file) ? (readConfigFile(file) as Record<string, unknown>) : {};
  const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  const host = o.host ?? env.BATON_HOST ?? str(config.host) ?? DEFAULT_HOST;
  if (!host || /\s/.test(host))
    throw invalidInput(`host "${host}" is not a host name (option --host, variable BATON_HOST)`);
  const portText = o.port ?? env.BATON_PORT ?? str(config.port) ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw invalidInput(`port "${portText}" is not 0-65535 (option --port, variable BATON_PORT)`);
  const bodyText = o.maxBody ?? env.BATON_MAX_BODY ?? str(config.max_body_bytes) ?? String(DEFAULT_MAX_BODY);
  const maxBodyBytes = Number(bodyText);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1024)
    throw invalidInput(
      `max body "${bodyText}" must be a whole number of bytes >= 1024 (option --max-body, variable BATON_MAX_BODY)`,
    );
  const frameText =
    o.maxFrame ?? env.BATON_MAX_FRAME ?? str(config.max_frame_bytes) ?? String(DEFAULT_MAX_FRAME);
  const maxFrameBytes = Number(frameText);
  if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 1024)
    throw invalidInput(
      `max frame "${frameText}" must be a whole number of bytes >= 1024 (option --max-frame, variable BATON_MAX_FRAME)`,
    );
  const allowedHosts = listSetting(o.allowHost ?? env.BATON_ALLOWED_HOSTS ?? config.allowed_hosts);
  const badHost = allowedHosts.find((h) => parseHostHeader(h) === null);
  if (badHost !== undefined)
    throw invalidInput(
      `allowed host "${badHost}" is not a host name or host:port (option --allow-host, variable BATON_ALLOWED_HOSTS)`,
    );
  const allowedOrigins = listSetting(o.allowOrigin ?? env.BATON_ALLOWED_ORIGINS ?? config.allowed_origins);
  const badOrigin = allowedOrigins.find((x) => normalizeOrigin(x) === null);
  if (badOrigin !== undefined)
    throw invalidInput(
      `allowed origin "${badOrigin}" is not an http(s) origin like https://baton.example.com (option --allow-origin, variable BATON_ALLOWED_ORIGINS)`,
    );
  const noAuth = o.auth === false || env.BATON_NO_AUTH === '1';
  if (noAuth && !isLoopback(host))
    throw invalidInput(
      `refusing to serve ${host} without a token: --no-auth (variable BATON_NO_AUTH) is for loopback addresses only; drop it or bind 127.0.0.1 (option --host, variable BATON_HOST)`,
    );
  return { host, port, noAuth, maxBodyBytes, maxFrameBytes, allowedHosts, allowedOrigins };
}
