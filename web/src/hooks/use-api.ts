import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../api/index.js';

export interface ApiData<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

/**
 * GET `path` (null: nothing to fetch), again whenever `refresh` changes (a live event arrived). The previous data
 * stays on screen while the next answer is on its way, so live updates do not flicker. `seen` gets every answer, one
 * a later fetch superseded too: a GET that did something (the context's read of a transcript) says so only once.
 * A new `path` is another thing, whose answer replaces what was shown once it comes (a spinner meanwhile), unless
 * `same` says it is the same thing read anew (it stays the same): the previous data stays on screen then too.
 */
export function useApi<T>(
  path: string | null,
  refresh: unknown = 0,
  seen?: (data: T) => void,
  same?: string,
): ApiData<T> {
  const seenNow = useRef(seen);
  seenNow.current = seen;
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [manual, setManual] = useState(0);
  const thing = same ?? path;
  const lastThing = useRef(thing);

  useEffect(() => {
    if (path === null) return;
    if (lastThing.current !== thing) {
      lastThing.current = thing;
      setData(null);
    }
    let live = true;
    setLoading(true);
    api
      .get<T>(path)
      .then((d) => {
        seenNow.current?.(d);
        if (!live) return;
        setData(d);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(e instanceof ApiError ? e : new ApiError(0, 'internal', String(e)));
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, thing, refresh, manual]);

  const reload = useCallback(() => setManual((n) => n + 1), []);
  return { data, error, loading, reload };
}
