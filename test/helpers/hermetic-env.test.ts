import { afterEach, describe, expect, it } from 'vitest';
import { hermeticEnv } from './hermetic-env.js';
import { runCli } from './cli.js';
import { tempDir } from './git-repo.js';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('hermeticEnv', () => {
  it("drops the shell's Baton settings, keeps the rest and the test knobs, and applies extras last", () => {
    process.env.BATON_URL = 'http://127.0.0.1:1';
    process.env.BATON_TOKEN = 'leaked';
    process.env.BATON_TEST_CHROMIUM = '/usr/bin/chromium';
    const env = hermeticEnv({ BATON_HOME: '/tmp/h', PATH: undefined });
    expect(env.BATON_URL).toBeUndefined();
    expect(env.BATON_TOKEN).toBeUndefined();
    expect(env.BATON_TEST_CHROMIUM).toBe('/usr/bin/chromium');
    expect(env.BATON_HOME).toBe('/tmp/h');
    expect('PATH' in env).toBe(false);
    expect(env.HOME).toBe(process.env.HOME);
  });

  it('a CLI started by the test helpers ignores a BATON_URL left in the shell', async () => {
    process.env.BATON_URL = 'http://127.0.0.1:1';
    process.env.BATON_DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
    const home = tempDir();
    const r = await runCli(['list', '--json'], { cwd: home, env: { BATON_HOME: home } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
