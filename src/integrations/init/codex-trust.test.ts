import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { codexTrust } from './codex-trust.js';

function codexHome(toml: string | null): string {
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
    const dir = codexHome(toml);
    expect(codexTrust('/work/main', dir)).toBe('trusted');
    expect(codexTrust('/work/main/', dir)).toBe('trusted');
    expect(codexTrust('/work/app', dir)).toBe('untrusted');
    expect(codexTrust('/work/elsewhere', dir)).toBeNull();
    expect(codexTrust('/work/main', codexHome(null))).toBeNull();
    // a trust_level of another table does not count
    expect(
      codexTrust('/work/x', codexHome('[projects."/work/x"]\n[other]\ntrust_level = "trusted"\n')),
    ).toBeNull();
  });
});
