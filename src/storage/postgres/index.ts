import { BatonError } from '../../core/index.js';
import type { Durability, Store } from '../store.js';

/** Placeholder until the PostgreSQL backend lands: says so instead of failing obscurely. */
export async function openPostgresStore(_url: string, _options: { durability?: Durability }): Promise<Store> {
  throw new BatonError(
    'unavailable',
    'the PostgreSQL backend is not built yet; use a SQLite file for --database / BATON_DATABASE_URL',
  );
}
