import { sqliteDriverError } from './sqlite-driver-error.js';
import type { Durability, Store } from './store.js';

export interface OpenStoreOptions {
  /** A SQLite file path, or a postgres:// URL. */
  database: string;
  durability?: Durability;
  /** PostgreSQL: give up on a server that does not answer a first connection within this (PostgresOptions). */
  answerWithinMs?: number;
  /** SQLite: where a write that waits for another process's write lock says so (default: standard error). */
  onLockWait?: (line: string) => void;
  /** SQLite: no write waits for another process's write lock past this time (WriteLockOptions.waitUntil). */
  waitUntil?: number;
}

import { isPostgresUrl } from '../core/database-url.js';

export { isPostgresUrl };

/** Opens the store a database setting names; each driver is loaded only when used. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (isPostgresUrl(options.database)) {
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(options.database, {
      durability: options.durability,
      ...(options.answerWithinMs === undefined ? {} : { answerWithinMs: options.answerWithinMs }),
    });
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  try {
    return new SqliteStore(options.database, {
      durability: options.durability,
      ...(options.onLockWait ? { onLockWait: options.onLockWait } : {}),
      ...(options.waitUntil === undefined ? {} : { waitUntil: options.waitUntil }),
    });
  } catch (e) {
    throw sqliteDriverError(e);
  }
}
