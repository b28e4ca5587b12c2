import { describe, expect, it } from 'vitest';
import { backupRefName, backupRefPrefix, backupRefsUnstamped } from './backup-ref.js';

describe('backup ref names', () => {
  const at = new Date('2026-12-03T07:45:12.345Z');

  it('a restore ref is its workflow folder and the UTC second of the restore', () => {
    expect(backupRefName('wf_01ABC', at)).toBe('refs/baton/backup/wf_01ABC/20261203T074512Z');
    expect(backupRefName('wf 1/x', at).startsWith(backupRefPrefix('wf 1/x'))).toBe(true);
    expect(backupRefPrefix('wf 1/x')).toBe('refs/baton/backup/wf_1_x/');
  });

  it('a preview names every backup ref it shows without the stamp it will not have', () => {
    const ref = backupRefName('wf_1', at);
    const text = `git update-ref ${ref} abc && git update-ref ${ref}-worktree def`;
    expect(backupRefsUnstamped(text, '<time>')).toBe(
      'git update-ref refs/baton/backup/wf_1/<time> abc && git update-ref refs/baton/backup/wf_1/<time>-worktree def',
    );
    expect(backupRefsUnstamped('git reset --hard 20261203T074512Z', '<time>')).toBe(
      'git reset --hard 20261203T074512Z',
    );
  });
});
