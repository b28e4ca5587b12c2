import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

// A hook whose standard input cannot be read says the read's error, where the user looks (its note on standard error,
// the systemMessage, `baton doctor`): not "no hook input on stdin", which would send them after the hook line.

/** `baton hook <event>` run with a standard input open for writing only: every read of it fails (EBADF). */
function hookWithUnreadableStdin(repo: string, env: Record<string, string>, event: string) {
  const fd = openSync(join(tempDir('baton-stdin-'), 'write-only'), 'w');
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [batonBin, 'hook', event], {
      cwd: repo,
      env: hermeticEnv(env),
      stdio: [fd, 'pipe', 'pipe'],
    });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('a hook whose standard input cannot be read', () => {
  it('says the read error in its note, its systemMessage and baton doctor, and is marked failed', async () => {
    const { repo, env, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = await hookWithUnreadableStdin(repo, env, 'Stop');
    expect(hook.code).toBe(0);
    expect(hook.stderr).toContain('baton: Stop: cannot read the hook input on stdin: EBADF');
    expect(hook.stderr).not.toContain('no hook input');
    expect(JSON.parse(hook.stdout)).toMatchObject({
      systemMessage: expect.stringContaining(
        'the Stop hook failed: cannot read the hook input on stdin: EBADF',
      ) as string,
    });
    const doctor = await baton(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^problem: the last Stop hook .*failed: cannot read the hook input on stdin: EBADF.*\. The agent sent no valid hook input: /m,
    );
  });
});
