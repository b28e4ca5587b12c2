import { join } from 'node:path';
import { isPostgresUrl, postgresPlace, redactUrl } from '../core/database-url.js';
import { SettingReader } from './setting-reader.js';
import { batonHome } from './settings.js';

/** Where a command's records go: a Baton server, a PostgreSQL database or a SQLite file, and the setting that chose it. */
export interface StoreInUse {
  kind: 'server' | 'postgres' | 'sqlite';
  /** The server's URL, `host:port/db as user` (never a password), or the SQLite file's path. */
  place: string;
  /** Where the setting came from, as the settings resolver says it: `variable BATON_DATABASE_URL`, `default`, ... */
  from: string;
  /**
   * Set only by this command's option or this shell's environment, and not what the config files name: an agent's
   * hooks, started elsewhere (another terminal, an IDE), use it only when their environment has it too; otherwise
   * they write to `otherwise`.
   */
  thisShellOnly: boolean;
  /** The store without this shell's options and variables (what the hooks use by the config files), when it differs. */
  otherwise?: Omit<StoreInUse, 'thisShellOnly' | 'otherwise'>;
}

/** The store a command with these settings uses: the server when one is named, else the database setting. */
export function storeInUse(reader: SettingReader, home: string): StoreInUse {
  const used = chosen(reader, home);
  // what a process started without this shell's options and variables uses: the config files' store, or the default
  const files = chosen(new SettingReader({}, {}, reader.files), home);
  const same = files.kind === used.kind && files.place === used.place;
  return same ? { ...used, thisShellOnly: false } : { ...used, thisShellOnly: true, otherwise: files };
}

function chosen(reader: SettingReader, home: string): Omit<StoreInUse, 'thisShellOnly'> {
  const server = reader.get('server');
  if (server.text) return { kind: 'server', place: redactUrl(server.text), from: server.from };
  const db = reader.get('database');
  if (db.text) return { ...databaseStore(db.text), from: db.from };
  return { kind: 'sqlite', place: join(home, 'baton.db'), from: defaultFrom(home) };
}

/**
 * Where the default SQLite file comes from, said truthfully: Baton's home is `~/.baton` unless BATON_HOME (or --home)
 * moves it, and a user who never set BATON_HOME is told how to move it rather than shown a variable they never set.
 */
const defaultFrom = (home: string): string =>
  home === batonHome(undefined, {})
    ? 'default: ~/.baton/baton.db; set BATON_HOME to move it'
    : 'default: $BATON_HOME/baton.db';

/** The store a database setting names: PostgreSQL at `host:port/db as user` (never a password), or a SQLite file. */
const databaseStore = (database: string): Pick<StoreInUse, 'kind' | 'place'> =>
  isPostgresUrl(database)
    ? { kind: 'postgres', place: postgresPlace(database) }
    : { kind: 'sqlite', place: database };

/** A database setting in words, as `storeName` says a store: the SQLite file, or PostgreSQL without its password. */
export const databaseName = (database: string): string => storeName(databaseStore(database));

/** The store in words: `PostgreSQL db.internal:5432/baton as baton (variable BATON_DATABASE_URL)`. */
export function storeText(s: Pick<StoreInUse, 'kind' | 'place' | 'from'>): string {
  return `${storeName(s)} (${s.from})`;
}

/** The store in words, without where its setting came from: `PostgreSQL db.internal:5432/baton as baton`. */
export function storeName(s: Pick<StoreInUse, 'kind' | 'place'>): string {
  const what = { server: 'the Baton server', postgres: 'PostgreSQL', sqlite: 'SQLite' }[s.kind];
  return `${what} ${s.place}`;
}

/**
 * What an agent's hooks do with a store this shell alone names, and how to make it stick: a database is kept with
 * `baton init --save-database` (the `database` key of $BATON_HOME/config.json, which every process of this user
 * reads); a server has no config key, so the agent must start with BATON_URL (and BATON_TOKEN) in its environment.
 */
export function hooksStoreWarning(s: StoreInUse, home: string): string | null {
  if (!s.thisShellOnly) return null;
  const other = s.otherwise;
  const fallback =
    !other || (other.kind === 'sqlite' && other.from.startsWith('default'))
      ? `${join(home, 'baton.db')}, a separate log the team never sees`
      : `${storeText(other)} instead`;
  const setting = s.from.replace(/^(option|variable) /, '');
  return s.kind === 'server'
    ? `this shell names the server through ${setting} only: the agent's hooks send to it only if the agent starts with BATON_URL (and BATON_TOKEN) in its environment too (export them in your shell profile); otherwise they write to ${fallback}`
    : `this shell names the database through ${setting} only: the agent's hooks use it only if the agent starts with BATON_DATABASE_URL in its environment too; otherwise they write to ${fallback}. To keep it for every process of this user: \`baton init --save-database\` (the \`database\` key of ${join(home, 'config.json')})`;
}
