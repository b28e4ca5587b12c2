import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { codexTrust, userWritableRoots } from './codex-config.js';

/** A Codex folder holding this config.toml (none: null). */
function codexFolder(toml: string | null): string {
  const dir = join(tempDir('codex-home-'), '.codex');
  mkdirSync(dir);
  if (toml !== null) writeFileSync(join(dir, 'config.toml'), toml);
  return dir;
}

describe('codexTrust', () => {
  it('reads the folder\'s trust_level from [projects."<folder>"], in either quoting', () => {
    const toml = [
      'model = "gpt-5"',
      '[projects."/work/other"]',
      'trust_level = "trusted"',
      '',
      "[projects.'/work/app']",
      'trust_level = "untrusted"',
      '[projects."/work/main"]',
      '# a comment',
      'trust_level = "trusted"',
      '[mcp_servers.baton]',
      'command = "baton"',
    ].join('\n');
    const dir = codexFolder(toml);
    expect(codexTrust('/work/main', dir)).toBe('trusted');
    expect(codexTrust('/work/main/', dir)).toBe('trusted');
    expect(codexTrust('/work/app', dir)).toBe('untrusted');
    expect(codexTrust('/work/elsewhere', dir)).toBeNull();
    expect(codexTrust('/work/main', codexFolder(null))).toBeNull();
    // a trust_level of another table does not count
    expect(
      codexTrust('/work/x', codexFolder('[projects."/work/x"]\n[other]\ntrust_level = "trusted"\n')),
    ).toBeNull();
  });
});

describe("the user's own writable roots (kept when baton run adds the database's folder)", () => {
  it('reads them from [sandbox_workspace_write] over several lines, or a dotted key', () => {
    expect(
      userWritableRoots(
        codexFolder(
          'model = "gpt-5"\n[sandbox_workspace_write]\nnetwork_access = false\nwritable_roots = [\n  "/data/cache",\n  \'/opt/x\',\n]\n[other]\nwritable_roots = ["/no"]\n',
        ),
      ),
    ).toEqual(['/data/cache', '/opt/x']);
    expect(userWritableRoots(codexFolder('sandbox_workspace_write.writable_roots = ["/a"]\n'))).toEqual([
      '/a',
    ]);
    // another table's key, none at all, no file
    expect(userWritableRoots(codexFolder('[profiles.x]\nwritable_roots = ["/no"]\n'))).toEqual([]);
    expect(userWritableRoots(codexFolder('model = "gpt-5"\n'))).toEqual([]);
    expect(userWritableRoots(join(tempDir(), 'none'))).toEqual([]);
  });
});
