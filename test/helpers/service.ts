import { join } from 'node:path';
import * as git from '../../src/git/git.js';
import { countTokens } from '../../src/tokens/count-tokens.js';
import { BatonService, type ServiceOptions } from '../../src/service/index.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/store.js';
import { tempDir } from './git-repo.js';

/** A manual clock for tests that need time to pass. */
export class TestClock {
  constructor(public time = Date.parse('2026-01-01T00:00:00.000Z')) {}
  now = () => new Date(this.time);
  advance(ms: number) {
    this.time += ms;
  }
}

export function sqliteStore(path = join(tempDir('baton-db-'), 'baton.db')): SqliteStore {
  return new SqliteStore(path);
}

export function makeService(
  store: Store = sqliteStore(),
  options: Partial<ServiceOptions> = {},
): BatonService {
  return new BatonService(store, git, {
    pauseTimeoutMs: 5 * 60_000,
    staleAfterMs: 7 * 86_400_000,
    countTokens,
    ...options,
  });
}
