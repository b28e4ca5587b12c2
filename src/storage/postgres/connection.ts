import pg from 'pg';
import { BatonError, conflict } from '../../core/index.js';
import type { Durability } from '../store.js';
import { POSTGRES_HUNG_HINT, redactUrl } from '../../core/database-url.js';

export interface PostgresOptions {
  durability?: Durability;
  /** Connections per process (default 4): the CLI uses one, a server a few. */
  poolSize?: number;
  /**
   * Give up sooner than CONNECT_TIMEOUT_MS on a server that does not answer the first connection: a hook that follows
   * one this server left unanswered moments ago does not wait the whole time again.
   */
  answerWithinMs?: number;
}

export { redactUrl };

/**
 * How long a connection may take to be ready (TCP, TLS, authentication): a server that takes the connection and never
 * answers (a stopped postmaster, a frozen host) is given up on, and said so, instead of waited for forever.
 */
export const CONNECT_TIMEOUT_MS = 5000;

/** A connection that gives up on a server that does not answer within CONNECT_TIMEOUT_MS (pg: "timeout expired"). */
class TimedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * A pool whose every connection runs at the chosen durability: `full` waits for the WAL flush at each commit
 * (synchronous_commit=on: survives a crash of the server or a power loss), `normal` acknowledges before the flush
 * (synchronous_commit=off: survives a crash of any Baton process; a server crash may lose the last few
 * hundred milliseconds of commits, never half of one).
 */
export function createPool(url: string, options: PostgresOptions): pg.Pool {
  const sync = options.durability === 'normal' ? 'off' : 'on';
  const pool = new pg.Pool({
    connectionString: asLibpqReadsIt(url),
    max: options.poolSize ?? 4,
    // on each new connection, not on the pool: a command waiting for a connection another holds waits as before
    Client: TimedClient,
    allowExitOnIdle: true,
    options: `-c synchronous_commit=${sync}`,
  });
  // An idle connection the server dropped must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A URL's `sslmode` read as libpq (psql) reads it: `require` encrypts, `verify-full` also checks the server's
 * certificate and name. node-pg's own reading (every mode checks it as verify-full) prints a nine-line warning at each
 * connection; it is kept when the URL asks for it (`uselibpqcompat=false`).
 */
function asLibpqReadsIt(url: string): string {
  if (!/[?&]sslmode=/i.test(url) || /[?&]uselibpqcompat=/i.test(url)) return url;
  const hash = url.indexOf('#');
  return hash < 0
    ? `${url}&uselibpqcompat=true`
    : `${url.slice(0, hash)}&uselibpqcompat=true${url.slice(hash)}`;
}

/** What to do about a PostgreSQL refusal that is not the server being out of reach, by its SQLSTATE or words. */
function nextStep(code: string, message: string): string {
  if (code === '3D000')
    return `; create it (\`createdb <name>\`, or CREATE DATABASE as an administrator) or name an existing one in ${URL_SETTINGS}`;
  // Baton creates its tables at first use: the role needs to (its own database, or CREATE on the schema)
  if (code === '42501')
    return '; the role needs to create and use its tables: give it a database of its own (`createdb -O <role> baton`), or, as an administrator, `GRANT USAGE, CREATE ON SCHEMA public TO <role>`';
  if (/does not support SSL/i.test(message))
    return '; this server does not speak TLS: leave sslmode out of the URL (or sslmode=disable), or turn TLS on in the server';
  if (/self[- ]signed|certificate|unable to verify/i.test(message))
    return "; the server's certificate is not trusted: give its CA with sslrootcert=<file> in the URL, or use sslmode=require (encrypted, not verified)";
  return '';
}

/** Where a database URL is named, as the settings resolver reads it. */
const URL_SETTINGS = '--database, BATON_DATABASE_URL or the `database` key of a config file';

const connectionCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * Turns a driver error into a BatonError: lost races are conflicts, an unreachable server is unavailable (`waitedMs`:
 * the connection timeout the error came from).
 */
export function toBatonError(
  e: unknown,
  url: string,
  what: string,
  waitedMs = CONNECT_TIMEOUT_MS,
): BatonError {
  if (BatonError.isInstance(e)) return e;
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  // serialization failure, deadlock, unique violation (another writer appended the same seq first)
  if (code === '40001' || code === '40P01' || code === '23505')
    return conflict(`${what}: another writer changed the workflow first; reload and try again`, {
      pg_code: code,
    });
  // the server took the connection and said nothing (TimedClient's timeout)
  if (/^timeout expired$|due to connection timeout/i.test(err.message ?? ''))
    return new BatonError(
      'unavailable',
      `PostgreSQL at ${redactUrl(url)} did not answer within ${waitedMs / 1000} s (it took the connection and never replied: a stopped or overloaded server, or another program on that port); ${POSTGRES_HUNG_HINT}`,
      { pg_code: code, unanswered: true },
      { cause: e },
    );
  // reached, but the login was refused: the URL's user or password (or pg_hba.conf) is what to fix
  if (code === '28P01' || code === '28000')
    return new BatonError(
      'unavailable',
      `PostgreSQL at ${redactUrl(url)} refused the login (${err.message ?? code}); check the user and password of the database URL (${URL_SETTINGS})`,
      { pg_code: code },
      { cause: e },
    );
  if (
    connectionCodes.has(code) ||
    code.startsWith('08') ||
    code.startsWith('57P') ||
    /^Connection terminated/i.test(err.message ?? '')
  )
    return new BatonError(
      'unavailable',
      `cannot reach PostgreSQL at ${redactUrl(url)} (${err.message ?? code}); check that it runs and that the database URL (${URL_SETTINGS}) names it`,
      { pg_code: code },
      { cause: e },
    );
  return new BatonError(
    'internal',
    `${what} failed on PostgreSQL at ${redactUrl(url)}: ${err.message ?? String(e)}${nextStep(code, err.message ?? '')}`,
    { pg_code: code },
    {
      cause: e,
    },
  );
}

/** Connects once, giving up after `ms`: the unavailable error a pool's connection would give, or nothing. */
export async function checkAnswers(url: string, ms: number): Promise<void> {
  const client = new pg.Client({ connectionString: asLibpqReadsIt(url), connectionTimeoutMillis: ms });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    throw toBatonError(e, url, 'opening the database', ms);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * One query on the pool; its rows, or the driver's error as a BatonError saying what was being done. A `name`
 * prepares the statement once per connection (for the hot paths: no parsing and planning at every call).
 */
export async function queryRows<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  url: string,
  sql: string,
  params: unknown[],
  what: string,
  name?: string,
): Promise<R[]> {
  try {
    return (await pool.query<R>({ name, text: sql, values: params })).rows;
  } catch (e) {
    throw toBatonError(e, url, what);
  }
}
