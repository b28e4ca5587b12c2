/** Whether a database setting names a PostgreSQL server (else it is a SQLite file's path). */
export const isPostgresUrl = (database: string) => /^postgres(ql)?:\/\//.test(database);

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
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
