import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { tempDir } from '../helpers/git-repo.js';
import { crashHarness } from './harness.js';

const kills = Number(process.env.BATON_CRASH_KILLS ?? 200);

it(`SQLite keeps every acknowledged write through ${kills} SIGKILLs`, async () => {
  const database = join(tempDir('baton-crash-'), 'baton.db');
  const report = await crashHarness({ database, open: async () => new SqliteStore(database), kills });
  console.log(`sqlite crash harness: ${JSON.stringify(report)}`);
  expect(report.kills).toBeGreaterThanOrEqual(kills);
  // most children were killed while writing, after acknowledged writes (the harness waits for the first)
  expect(report.acknowledged).toBeGreaterThan(kills / 2);
}, 1_800_000);
