import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../config/package-info.js';
import { spawnAgent } from './local-executor.js';

/** What an agent run by Baton gets from `sh -c <script>`, with this PATH in Baton's own environment. */
async function agentSays(script: string, path: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'baton-agent-'));
  const agent = spawnAgent(
    { bin: '/bin/sh', args: ['-c', script], cwd, env: {}, stdin: null },
    { PATH: path, HOME: cwd },
  );
  let out = '';
  agent.onOutput((d) => (out += d));
  const exit = await agent.wait();
  return { out: out.trim(), code: exit.code };
}

describe('an agent Baton runs has `baton` on its PATH', () => {
  it("where none is there (a container's image, a Baton run by its path): the Baton that runs it", async () => {
    const r = await agentSays('baton --version', '/usr/bin:/bin');
    expect(r).toEqual({ out: PACKAGE_VERSION, code: 0 });
  });

  it('leaves a `baton` already on the PATH first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-path-'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'baton'), '#!/bin/sh\necho "the user\'s own baton"\n');
    chmodSync(join(dir, 'bin', 'baton'), 0o755);
    const path = `${join(dir, 'bin')}:/usr/bin:/bin`;
    expect(await agentSays('baton --version; echo "$PATH"', path)).toEqual({
      out: `the user's own baton\n${path}`,
      code: 0,
    });
  });
});
