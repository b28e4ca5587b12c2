import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withLock } from '../../src/storage/lock-file.js';
import { tempDir } from '../helpers/git-repo.js';

const writer = fileURLToPath(new URL('./registry-writer.js', import.meta.url));

/** Runs `n` processes that each update the registry `times` times for their own workflows. */
async function race(runsDir: string, n: number, times: number) {
  const codes = await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<number | null>((ok) => {
          const child = spawn(process.execPath, [writer, runsDir, `p${i}`, String(times)], {
            stdio: 'inherit',
          });
          child.on('close', ok);
        }),
    ),
  );
  expect(codes).toEqual(codes.map(() => 0));
}

describe('sessions.json under several processes', () => {
  it('keeps every workflow line while 4 processes update it at once', async () => {
    const root = tempDir('baton-registry-');
    const runsDir = join(root, '.baton', 'runs');
    await race(runsDir, 4, 40);
    const registry = JSON.parse(readFileSync(join(root, '.baton', 'sessions.json'), 'utf8')) as {
      sessions: { id: string }[];
    };
    const ids = registry.sessions.map((s) => s.id).sort();
    const expected = Array.from({ length: 4 }, (_, p) =>
      Array.from({ length: 40 }, (__, k) => `wf-p${p}-${k}`),
    ).flat();
    expect(ids).toEqual(expected.sort());
    expect(existsSync(join(root, '.baton', 'sessions.json.lock'))).toBe(false);
  }, 120_000);
});

describe('the lock file', () => {
  it('breaks a lock left by a process that no longer exists', () => {
    const lock = join(tempDir('baton-lock-'), 'x.lock');
    writeFileSync(
      lock,
      JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), at: Date.now(), token: 't' }),
    );
    expect(withLock(lock, () => 'ran')).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('breaks a lock older than the stale limit, whoever holds it', () => {
    const lock = join(tempDir('baton-lock-'), 'x.lock');
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.ppid, host: 'another-host', at: Date.now() - 60_000, token: 't' }),
    );
    expect(withLock(lock, () => 'ran', { staleMs: 30_000 })).toBe('ran');
  });

  it('waits for a live holder and then says who holds it', () => {
    const lock = join(tempDir('baton-lock-'), 'x.lock');
    const held = JSON.stringify({ pid: process.ppid, host: 'another-host', at: Date.now(), token: 't' });
    writeFileSync(lock, held);
    expect(() => withLock(lock, () => 'ran', { timeoutMs: 200 })).toThrow(/is locked by .*another-host/);
    expect(readFileSync(lock, 'utf8')).toBe(held);
  });
});
