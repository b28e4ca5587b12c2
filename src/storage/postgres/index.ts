import type { Store } from '../store.js';
import type { PostgresOptions } from './connection.js';
import { PostgresStore } from './postgres-store.js';

export { PostgresStore } from './postgres-store.js';
export type { PostgresOptions } from './connection.js';

/** Opens (and migrates) the PostgreSQL store a postgres:// URL names. */
export function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<Store> {
  return PostgresStore.open(url, options);
}
