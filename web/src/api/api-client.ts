import { tokenStore } from './token-store.js';

/**
 * An API error: Baton's `{error: {code, message, ...details}}` body, or a network failure (code `network`). `details`:
 * the body's other fields (a 409 of a teammate's workflow says `owner` and `theirs_needed`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when the server answers 401: the dashboard asks for the token again. */
export function onUnauthorized(l: Listener): () => void {
  unauthorizedListeners.add(l);
  return () => unauthorizedListeners.delete(l);
}

/** Tells the listeners the token was refused (a 401, or a live socket closed because the token was rotated). */
export function sayUnauthorized() {
  unauthorizedListeners.forEach((l) => l());
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${tokenStore.get() ?? ''}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(
      0,
      'network',
      `the server did not answer (${(e as Error).message}): is baton serve still running where it was started?`,
    );
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const err = (parsed as { error?: { code?: string; message?: string } & Record<string, unknown> } | null)
      ?.error;
    if (res.status === 401) sayUnauthorized();
    throw new ApiError(
      res.status,
      err?.code ?? `http_${res.status}`,
      err?.message ?? `HTTP ${res.status}`,
      err ?? {},
    );
  }
  return parsed as T;
}

/** The REST API under `/api`, with the bearer token. */
export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
};

/** `encodeURIComponent` for path segments. */
export const seg = (s: string) => encodeURIComponent(s);
