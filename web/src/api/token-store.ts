const key = 'baton.token';

/** The bearer token, asked for once and kept in localStorage (`baton token` prints it). */
export const tokenStore = {
  get: (): string | null => localStorage.getItem(key),
  set: (token: string) => localStorage.setItem(key, token.trim()),
  clear: () => localStorage.removeItem(key),
};
