/** Whether a database setting names a PostgreSQL server (else it is a SQLite file's path). */
export const isPostgresUrl = (database: string) => /^postgres(ql)?:\/\//.test(database);

/**
 * The URL without its password, for messages: everything between the user's name and the last "@" (a password that
 * holds "@", "#" or "/" unencoded is hidden whole too, where a URL parser would cut it at the first).
 */
export function redactUrl(url: string): string {
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0].length ?? 0;
  const before = url.slice(0, at);
  // the user's name ends at its first ":" (after a misspelt scheme's "postgres//", at the first after its last "/")
  const colon = scheme
    ? before.indexOf(':', scheme)
    : ([before.indexOf(':', before.lastIndexOf('/') + 1), before.indexOf(':')].find((i) => i >= 0) ?? -1);
  return colon < 0 ? url : `${url.slice(0, colon)}:***${url.slice(at)}`;
}

const postgresForm = 'postgres://user:password@host:5432/database';

/**
 * Why a database setting is neither a PostgreSQL URL nor a SQLite file's path, or null: a URL of another kind (a Baton
 * server's is BATON_URL's), a misspelt postgres:// URL, a server's address without one, a password whose "@", "#" or
 * "/" are not percent-encoded. Read as a path, each would become a SQLite file named after it, in the folder
 * the command runs in, its password in the file's name.
 */
export function databaseProblem(value: string): string | null {
  if (isPostgresUrl(value)) {
    // the query (`?sslmode=...&application_name=a@b`) may hold anything: the user and password come before it
    const rest = value.replace(/^postgres(ql)?:\/\//, '').replace(/\?[^?]*$/, '');
    const at = rest.lastIndexOf('@');
    if (at > 0 && /[@#/]/.test(rest.slice(0, at)))
      return 'has "@", "#" or "/" in its user name or password: percent-encode them there (@ is %40, # is %23, / is %2F)';
    return null;
  }
  if (/^postgres(?:ql)?(?::(?!\/\/)|\/\/)/i.test(value))
    return `is not a PostgreSQL URL: write it ${postgresForm}`;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme)
    return /^https?$/i.test(scheme)
      ? `is a web address: a Baton server is named with --server / BATON_URL; a database is a PostgreSQL URL (${postgresForm}) or a SQLite file's path`
      : `is a ${scheme}:// URL: Baton's database is PostgreSQL (${postgresForm}) or a SQLite file's path`;
  if (/^(?:[^/\s@]+@)?[\w.-]+:\d+(?:\/|$)/.test(value))
    return `looks like a server's address, not a file's path: a PostgreSQL database is named ${postgresForm}`;
  return null;
}

/** A PostgreSQL URL as a person names the database: `host:port/db` (as user), never the password. */
export function postgresPlace(url: string): string {
  try {
    const u = new URL(url);
    const db = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default database)';
    return `${u.host}/${db}${u.username ? ` as ${decodeURIComponent(u.username)}` : ''}`;
  } catch {
    return 'an unparsable postgres:// URL';
  }
}

/**
 * Why a Baton server's URL (--server / BATON_URL) is not one, or null: a database URL given in its place, an address
 * without http:// or https://.
 */
export function serverUrlProblem(value: string): string | null {
  if (isPostgresUrl(value) || databaseProblem(value)?.startsWith('is not a PostgreSQL URL'))
    return 'is a database URL: a database is named with --database / BATON_DATABASE_URL; BATON_URL names a Baton server (http://host:7420)';
  if (!/^https?:\/\//i.test(value)) return 'must start with http:// or https:// (e.g. http://127.0.0.1:7420)';
  return null;
}

/** What to do about a PostgreSQL that took the connection and did not answer. */
export const POSTGRES_HUNG_HINT = 'check that it runs and answers (`psql` with the same URL)';
