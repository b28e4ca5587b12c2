import { it } from 'vitest';
import { postgresStore } from '../helpers/postgres.js';
import { sqliteStore } from '../helpers/service.js';
import { checkDiskRoundTrip } from './disk-round-trip.cases.js';

it(
  'rebuild from disk and export/import reproduce every table on PostgreSQL',
  () => checkDiskRoundTrip(() => postgresStore()),
  120_000,
);

it('export/import moves a workflow from SQLite to PostgreSQL and back', async () => {
  await checkDiskRoundTrip(sqliteStore, () => postgresStore());
  await checkDiskRoundTrip(() => postgresStore(), sqliteStore);
}, 120_000);
