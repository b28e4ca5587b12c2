import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import type { Durability } from '../../src/storage/store.js';

/** The admin URL of the run's PostgreSQL; fails (never skips) with the reason when there is none. */
export function postgresAdminUrl(): string {
  const pgInfo = inject('postgres');
  if (!pgInfo)
    throw new Error('no PostgreSQL was provided: is test/setup/postgres-global.ts in vitest globalSetup?');
  if ('error' in pgInfo) throw new Error(pgInfo.error);
  return pgInfo.url;
}

/** A fresh, empty database on the run's server; its URL. */
export async function freshPostgresUrl(prefix = 'baton_test'): Promise<string> {
  const admin = postgresAdminUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A PostgresStore on its own fresh database. */
export async function postgresStore(durability: Durability = 'full'): Promise<PostgresStore> {
  return PostgresStore.open(await freshPostgresUrl(), { durability });
}
