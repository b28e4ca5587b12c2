import pg from 'pg';
import { expect, it } from 'vitest';
import { PostgresStore } from '../../src/storage/postgres/index.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { crashHarness } from './harness.js';

const kills = Number(process.env.BATON_CRASH_KILLS ?? 200);

it(`PostgreSQL keeps every acknowledged write through ${kills} SIGKILLs`, async () => {
  const database = await freshPostgresUrl('baton_crash');
  const admin = new pg.Client({ connectionString: database });
  await admin.connect();
  // A killed client's transaction is over only when the server has noticed the closed connection.
  const settle = async (appName: string) => {
    for (let i = 0; i < 500; i++) {
      const r = await admin.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [appName],
      );
      if (r.rows[0].n === 0) return;
      await new Promise((done) => setTimeout(done, 10));
    }
    throw new Error(`the server still holds the connections of ${appName}`);
  };
  const report = await crashHarness({
    database,
    open: () => PostgresStore.open(database),
    kills,
    settle,
  }).finally(() => admin.end());
  console.log(`postgres crash harness: ${JSON.stringify(report)}`);
  expect(report.kills).toBeGreaterThanOrEqual(kills);
  // most children were killed while writing, after acknowledged writes (the harness waits for the first)
  expect(report.acknowledged).toBeGreaterThan(kills / 2);
}, 1_800_000);
