import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';

// A token that leaked is replaced where the server runs: `baton token --rotate` writes a new one, and the running
// server takes it at its next request and refuses the old one, without a restart.

describe('baton token --rotate', () => {
  it('replaces the token a running server accepts, and the old one is refused from then on', async () => {
    const home = tempDir('baton-server-');
    const s = await startServerProcess(home);
    try {
      const status = (token: string) =>
        fetch(`${s.url}/api/workflows`, { headers: { authorization: `Bearer ${token}` } }).then(
          (r) => r.status,
        );
      expect(await status(s.token)).toBe(200);
      const rotated = await runCli(['token', '--rotate'], { cwd: home, env: { BATON_HOME: home } });
      expect(rotated.code, rotated.stderr).toBe(0);
      const fresh = rotated.stdout.trim();
      expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fresh).not.toBe(s.token);
      expect(rotated.stderr).toContain('takes it at its next request and refuses the old one');
      expect(statSync(join(home, 'token')).mode & 0o777).toBe(0o600);
      expect(await status(s.token)).toBe(401);
      expect(await status(fresh)).toBe(200);
      // `baton token` prints the new one; the server never restarted
      expect((await runCli(['token'], { cwd: home, env: { BATON_HOME: home } })).stdout.trim()).toBe(fresh);
      expect(s.ended()).toBeNull();
      // through a server, it is refused: a token is rotated where its server runs
      const remote = await runCli(['token', '--rotate'], {
        cwd: home,
        env: { BATON_HOME: tempDir('baton-client-'), BATON_URL: s.url, BATON_TOKEN: fresh },
      });
      expect(remote.code).toBe(2);
      expect(remote.stderr).toContain('a token is rotated where its server runs');
      expect(await status(fresh)).toBe(200);
    } finally {
      await s.stop();
    }
  });
});
