import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';

const writer = fileURLToPath(new URL('./hook-log-writer.js', import.meta.url));

describe('the hook log under hooks that end at once', () => {
  it('keeps the record of every one of 4 processes updating it at once', async () => {
    const path = join(tempDir('baton-home-'), 'hooks', 'abc.json');
    const codes = await Promise.all(
      Array.from(
        { length: 4 },
        (_, i) =>
          new Promise<number | null>((ok) => {
            const child = spawn(process.execPath, [writer, path, `p${i}`, '30'], { stdio: 'inherit' });
            child.on('close', ok);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    const log = JSON.parse(readFileSync(path, 'utf8')) as { events: Record<string, unknown> };
    expect(Object.keys(log.events).sort()).toEqual(
      Array.from({ length: 4 }, (_, p) => Array.from({ length: 30 }, (__, k) => `p${p}/${k}`))
        .flat()
        .sort(),
    );
    expect(existsSync(`${path}.lock`)).toBe(false);
  }, 60_000);
});
