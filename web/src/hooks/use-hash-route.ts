import { useEffect, useState } from 'react';

/** The dashboard's pages. Hash routing: `/workflows/{id}` is an API path too, so page URLs are never real paths. */
export type Route =
  | { page: 'workflows' }
  | { page: 'workflow'; id: string; snapshotId: string | null }
  | { page: 'recover'; id: string }
  | { page: 'not_found'; path: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  if (path === '/' || path === '/workflows') return { page: 'workflows' };
  const r = /^\/workflows\/([^/]+)\/recover\/?$/.exec(path);
  if (r?.[1]) return { page: 'recover', id: decodeURIComponent(r[1]) };
  const m = /^\/workflows\/([^/]+)(?:\/snapshots\/([^/]+))?\/?$/.exec(path);
  if (m?.[1]) {
    return {
      page: 'workflow',
      id: decodeURIComponent(m[1]),
      snapshotId: m[2] ? decodeURIComponent(m[2]) : null,
    };
  }
  return { page: 'not_found', path };
}

export const hrefOf = {
  workflows: () => '#/',
  workflow: (id: string) => `#/workflows/${encodeURIComponent(id)}`,
  recover: (id: string) => `#/workflows/${encodeURIComponent(id)}/recover`,
  snapshot: (id: string, sid: string) =>
    `#/workflows/${encodeURIComponent(id)}/snapshots/${encodeURIComponent(sid)}`,
};

export const navigate = (href: string) => {
  location.hash = href.replace(/^#/, '');
};

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
