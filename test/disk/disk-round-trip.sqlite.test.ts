import { it } from 'vitest';
import { sqliteStore } from '../helpers/service.js';
import { checkDiskRoundTrip } from './disk-round-trip.cases.js';

it('rebuild from disk and export/import reproduce every table on SQLite', () =>
  checkDiskRoundTrip(sqliteStore));
