import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/** A loopback bind address: `localhost`, `::1` or 127.0.0.0/8. */
export const isLoopback = (host: string) => {
  const h = bare(host);
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
};

/** A bind address that listens on every interface. */
export const isWildcard = (host: string) => ['0.0.0.0', '::', ''].includes(bare(host));

/** A host name without IPv6 brackets and trailing dot, lower case. */
const bare = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/** `Host` header syntax: `name`, `name:port`, `[v6]`, `[v6]:port`; null when it is none of them. */
export function parseHostHeader(value: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@?#]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m?.[1]) return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && port > 65535) return null;
  return { name: bare(m[1]), port };
}

export interface RequestGuardOptions {
  /** The address the server is bound to. */
  bindHost: string;
  /** The port it listens on (known once it listens). */
  port: () => number;
  /** Extra `Host` names it answers to (`name` for any port, `name:port` for one). */
  allowedHosts?: readonly string[];
  /** Extra origins allowed beside the same origin (`https://baton.example.com`). */
  allowedOrigins?: readonly string[];
}

/**
 * DNS rebinding and cross-site request checks of an HTTP server bound to `bindHost`. `Host` must name this server:
 * a loopback-bound server answers only to loopback names (localhost, 127.x.x.x, ::1) and its bound address, with its
 * port; a server bound to a specific address answers to that address; one bound to every interface (0.0.0.0, ::)
 * answers to the loopback names, the machine's interface addresses and its host name. Extra names come from
 * `allowedHosts`. `Origin`, when a request carries one, must be the request's own origin or one of `allowedOrigins`.
 * Each check returns null when the request passes, else the reason.
 */
export function requestGuard(o: RequestGuardOptions) {
  const bind = bare(o.bindHost);
  const names = new Set<string>([bind]);
  if (isLoopback(bind) || isWildcard(bind)) for (const n of ['localhost', '127.0.0.1', '::1']) names.add(n);
  if (isWildcard(bind)) {
    names.add(bare(hostname()));
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) names.add(bare(a.address.replace(/%.*$/, '')));
  }
  const extra = (o.allowedHosts ?? []).map((h) => parseHostHeader(h)).filter((h) => h !== null);
  const origins = new Set((o.allowedOrigins ?? []).map((x) => normalizeOrigin(x)).filter(Boolean));
  const known = (name: string) =>
    names.has(name) || ((isLoopback(bind) || isWildcard(bind)) && isLoopback(name));

  const host = (header: string | undefined): string | null => {
    const h = header === undefined ? null : parseHostHeader(header);
    if (!h) return `the Host header ${JSON.stringify(header ?? '')} is missing or malformed`;
    if (extra.some((e) => e.name === h.name && (e.port === null || e.port === h.port))) return null;
    const port = o.port();
    const portOk = h.port === port || (h.port === null && port === 80);
    if (known(h.name) && portOk) return null;
    return `the Host header "${header}" does not name this server (bound to ${o.bindHost} port ${port})`;
  };

  const origin = (value: string | undefined, hostHeader: string | undefined): string | null => {
    if (value === undefined) return null;
    const normalized = normalizeOrigin(value);
    if (normalized && origins.has(normalized)) return null;
    const h = hostHeader === undefined ? null : parseHostHeader(hostHeader);
    if (normalized && h) {
      const u = new URL(normalized);
      const defaultPort = u.protocol === 'https:' ? 443 : 80;
      const port = u.port ? Number(u.port) : defaultPort;
      if (bare(u.hostname) === h.name && port === (h.port ?? defaultPort)) return null;
    }
    return `cross-origin request from ${JSON.stringify(value)} refused`;
  };

  return { host, origin };
}

export type RequestGuard = ReturnType<typeof requestGuard>;

/** `scheme://host[:port]` of an http(s) origin, lower case, default port dropped; null for anything else. */
export function normalizeOrigin(value: string): string | null {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return `${u.protocol}//${u.host}`.toLowerCase();
}
