import { describe, expect, it } from 'vitest';
import type { ImportMark } from '../schemas/state.js';
import { nested, recordedPlace } from './recorded-place.js';

const mark = (cwd: string | null, branch: string | null): ImportMark => ({
  format: 'claude-code-transcript',
  path: '/tmp/s.jsonl',
  through_line: 10,
  recorded_in: { cwd, branch },
});

describe('where an imported session was recorded', () => {
  it('a folder is nested in another when it is it or inside it, either way, with either separator', () => {
    expect(nested('/home/a/shop', '/home/a/shop/')).toBe(true);
    expect(nested('/home/a/shop/api', '/home/a/shop')).toBe(true);
    expect(nested('/home/a/shop', '/home/a/shop/api')).toBe(true);
    expect(nested('/home/a/shopping', '/home/a/shop')).toBe(false);
    expect(nested('D:\\oh-my-posh\\src', 'D:\\oh-my-posh')).toBe(true);
  });

  it("is the latest import's, elsewhere when its folder is outside the worktree; nothing when none was noted", () => {
    const imports = { a: mark('/Users/bob/shop', 'main'), b: mark('/home/u/app/web', 'fix-login') };
    expect(recordedPlace(imports, '/home/u/app')).toEqual({
      cwd: '/home/u/app/web',
      branch: 'fix-login',
      elsewhere: false,
    });
    expect(recordedPlace({ a: mark('/Users/bob/shop', null) }, '/home/u/app')).toEqual({
      cwd: '/Users/bob/shop',
      branch: null,
      elsewhere: true,
    });
    expect(recordedPlace({ a: mark(null, null) }, '/home/u/app')).toBeNull();
    expect(recordedPlace({}, '/home/u/app')).toBeNull();
    // an import recorded before Baton noted the place
    expect(
      recordedPlace({ a: { format: 'codex-rollout', path: null, through_line: 3 } }, '/home/u/app'),
    ).toBeNull();
  });
});
