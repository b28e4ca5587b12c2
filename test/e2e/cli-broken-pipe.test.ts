import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { batonBin } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';

/** `baton <args> | head -c 0`: the reader of its output gone before it writes. Its exit code and what it said. */
function intoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [batonBin, ...args], {
      cwd: makeRepo(),
      env: hermeticEnv({ BATON_HOME: tempDir('baton-home-') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader of the output that went away (`baton list --json | head -c 0`)', () => {
  it('ends the output, not the command: its exit code as it would be, and no stack of the broken pipe', async () => {
    for (const args of [['list', '--json'], ['--help']]) {
      const r = await intoClosedPipe(args);
      expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|Unhandled 'error' event/);
      expect(r.code, args.join(' ')).toBe(0);
    }
  });
});
