import { join } from 'node:path';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import type { Durability, Store } from '../../src/storage/store.js';
import { tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

/**
 * What the conformance suite needs from a backend (the shape of LangGraph's `validate(initializer)`): a fresh,
 * empty location, and a way to open a store on it (again, to check what survived a close).
 */
export interface StoreBackend {
  name: 'sqlite' | 'postgres';
  newLocation(): Promise<string>;
  open(location: string, durability?: Durability): Promise<Store>;
}

export const sqliteBackend: StoreBackend = {
  name: 'sqlite',
  newLocation: async () => join(tempDir('baton-conf-'), 'baton.db'),
  open: async (location, durability) => new SqliteStore(location, { durability }),
};

export const postgresBackend: StoreBackend = {
  name: 'postgres',
  newLocation: () => freshPostgresUrl('baton_conf'),
  open: (location, durability) => PostgresStore.open(location, { durability }),
};
