import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookFolder } from './hook-cwd.js';

describe('hookFolder', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-cwd-')));
  mkdirSync(join(root, 'repo', 'sub'), { recursive: true });

  it('keeps a folder that exists', () => {
    expect(hookFolder(join(root, 'repo', 'sub'), '/')).toEqual({
      dir: join(root, 'repo', 'sub'),
      missing: null,
    });
  });

  it('takes a relative folder from where the hook runs', () => {
    expect(hookFolder('sub', join(root, 'repo'))).toEqual({ dir: join(root, 'repo', 'sub'), missing: null });
  });

  it('falls back to the nearest folder above one that was deleted, and says which was missing', () => {
    mkdirSync(join(root, 'repo', 'build', 'out'), { recursive: true });
    rmSync(join(root, 'repo', 'build'), { recursive: true });
    expect(hookFolder(join(root, 'repo', 'build', 'out'), '/')).toEqual({
      dir: join(root, 'repo'),
      missing: join(root, 'repo', 'build', 'out'),
    });
  });

  it('reads another system path style as relative to the hook folder (a Windows cwd on a POSIX host)', () => {
    const r = hookFolder('C:\\Users\\me\\proj', join(root, 'repo'));
    expect(r.dir).toBe(join(root, 'repo'));
    expect(r.missing).not.toBeNull();
  });
});
