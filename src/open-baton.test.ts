import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSettings } from './config/settings.js';
import { defaultCapacityPolicy } from './core/capacity.js';
import { openLocalService } from './open-baton.js';
import { tempDir } from '../test/helpers/git-repo.js';

describe('openLocalService: the one recipe of the CLI and the library', () => {
  it('reads the context thresholds from the settings, and releases what an executor created, with no option', async () => {
    const home = tempDir('baton-home-');
    const env = { BATON_CAPACITY_WARN: '0.5' };
    const settings = loadSettings({ home, database: join(home, 'baton.db') }, env, home);
    const { service } = await openLocalService(settings, () => undefined, { env });
    try {
      expect(service.options.capacity).toEqual({ warnAt: 0.5, pauseAt: defaultCapacityPolicy.pauseAt });
      expect(typeof service.options.releaseExecutor).toBe('function');
    } finally {
      await service.store.close();
    }
  });
});
