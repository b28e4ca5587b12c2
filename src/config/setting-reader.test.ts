import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveServeOptions } from '../server/serve-options.js';
import { configFiles } from './config-files.js';
import { loadSettings } from './settings.js';
import { configWorkspace as setup } from '../../test/helpers/config-workspace.js';

describe('the one settings resolver', () => {
  it("reads the worktree's baton.config.json for every setting, from any folder below it", () => {
    const { repo, env } = setup({
      database: '/data/team.db',
      durability: 'normal',
      pause_timeout: '90s',
      context_budget: 2500,
      actor: 'orchestrator',
    });
    const s = loadSettings({}, env, join(repo, 'src', 'deep'));
    expect(s).toMatchObject({
      database: '/data/team.db',
      durability: 'normal',
      pauseTimeoutMs: 90_000,
      contextBudget: 2500,
      actor: 'orchestrator',
    });
  });

  it('option > variable > worktree file > home file > default, key by key', () => {
    const { home, repo, env } = setup({ context_budget: 3000 }, { context_budget: 5000, stale_after: '2d' });
    expect(configFiles(home, repo).map((f) => f.file)).toEqual([
      join(repo, 'baton.config.json'),
      join(home, 'config.json'),
    ]);
    expect(loadSettings({}, env, repo)).toMatchObject({ contextBudget: 3000, staleAfterMs: 2 * 86_400_000 });
    expect(loadSettings({}, { ...env, BATON_CONTEXT_BUDGET: '6000' }, repo).contextBudget).toBe(6000);
    expect(
      loadSettings({ contextBudget: '7000' }, { ...env, BATON_CONTEXT_BUDGET: '6000' }, repo).contextBudget,
    ).toBe(7000);
    expect(loadSettings({}, env, null).contextBudget).toBe(5000); // no worktree: the home file
    expect(loadSettings({}, { BATON_HOME: join(home, 'none') }, null).contextBudget).toBe(4000);
  });

  it('a bad value names the file and key it came from, or the option or variable', () => {
    const { repo, env } = setup({ durability: 'sometimes', port: 'eighty' });
    expect(() => loadSettings({}, env, repo)).toThrow(
      `durability "sometimes" is not one of full, normal (${join(repo, 'baton.config.json')}, key durability)`,
    );
    expect(() => loadSettings({ durability: 'never' }, env, repo)).toThrow(
      'durability "never" is not one of full, normal (option --durability, variable BATON_DURABILITY)',
    );
    expect(() => loadSettings({}, { ...env, BATON_DURABILITY: 'x' }, repo)).toThrow(
      'variable BATON_DURABILITY)',
    );
    const settings = loadSettings({ durability: 'full' }, env, repo);
    expect(() => resolveServeOptions({}, env, settings)).toThrow(
      `port "eighty" must be a whole number from 0 to 65535 (${join(repo, 'baton.config.json')}, key port)`,
    );
  });

  it('the server reads its settings from the same files, lists as arrays or commas', () => {
    const { home, env } = setup(undefined, {
      port: 0,
      allowed_hosts: ['baton.example.com', 'b.example:8080'],
    });
    const o = resolveServeOptions({}, env, loadSettings({}, env, null));
    expect(o.port).toBe(0);
    expect(o.allowedHosts).toEqual(['baton.example.com', 'b.example:8080']);
    const cli = resolveServeOptions({ allowHost: 'x.example' }, env, loadSettings({ home }, env, null));
    expect(cli.allowedHosts).toEqual(['x.example']);
    // the variables only, read by the same reader: on/off, 1/0
    const flags = (more: NodeJS.ProcessEnv) => {
      const e = { ...env, ...more };
      return resolveServeOptions({}, e, loadSettings({}, e, null));
    };
    expect(flags({ BATON_NO_AUTH: '1', BATON_CHECK_RESPONSES: 'on' })).toMatchObject({
      noAuth: true,
      checkResponses: true,
    });
    expect(flags({ BATON_NO_AUTH: '0' })).toMatchObject({ noAuth: false, checkResponses: false });
    expect(() => flags({ BATON_NO_AUTH: 'yes please' })).toThrow(
      'no auth "yes please" is not on or off (option --no-auth, variable BATON_NO_AUTH)',
    );
  });

  it('an unreadable config file is an error naming it', () => {
    const { repo, env } = setup();
    writeFileSync(join(repo, 'baton.config.json'), '{ not json');
    expect(() => loadSettings({}, env, repo)).toThrow(/cannot read the config file .*baton\.config\.json/);
  });
});
