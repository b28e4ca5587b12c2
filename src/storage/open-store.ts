import { sqliteDriverError } from './sqlite-driver-error.js';
import type { Durability, Store } from './store.js';

export interface OpenStoreOptions {
  /** A SQLite file path, or a postgres:// URL. */
  database: string;
  durability?: Durability;
}

import { isPostgresUrl } from '../core/database-url.js';

export { isPostgresUrl };

/** Opens the store a database setting names; each driver is loaded only when used. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (isPostgresUrl(options.database)) {
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(options.database, { durability: options.durability });
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  try {
    return new SqliteStore(options.database, { durability: options.durability });
  } catch (e) {
    throw sqliteDriverError(e);
  }
}
