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

describe("openLocalService: a lost run's task log", () => {
  it("says a command whose pipeline hid its failure failed, as the live run and the briefing's errors do", async () => {
    const home = tempDir('baton-home-');
    const settings = loadSettings({ home, database: join(home, 'baton.db') }, {}, home);
    const { service } = await openLocalService(settings, () => undefined, { env: {} });
    // `codex exec --json` cut off by the crash after its command ended: `tail` exits 0 whatever the tests did
    const log = [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: 'Running the tests.' } },
      {
        type: 'item.started',
        item: { id: 'i2', type: 'command_execution', command: 'npm test 2>&1 | tail -3' },
      },
      {
        type: 'item.completed',
        item: {
          id: 'i2',
          type: 'command_execution',
          command: 'npm test 2>&1 | tail -3',
          aggregated_output: ' Test Files  1 failed | 4 passed (5)\n      Tests  2 failed | 40 passed (42)\n',
          exit_code: 0,
          status: 'completed',
        },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    try {
      const signals = (await service.options.readAgentOutput?.(log, { fromStart: true })) ?? [];
      expect(signals.find((s) => s.type === 'summary')).toMatchObject({
        text: 'Running the tests.\n\nAfter it: `exec_command: npm test 2>&1 | tail -3` failed, its output ending: Tests  2 failed | 40 passed (42)',
      });
    } finally {
      await service.store.close();
    }
  });
});
