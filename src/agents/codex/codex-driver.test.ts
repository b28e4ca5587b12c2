import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { userWritableRoots } from './codex-driver.js';

const codexHome = (toml: string) => {
  const dir = tempDir('codex-home-');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.toml'), toml);
  return { CODEX_HOME: dir };
};

describe("the user's own writable roots (kept when baton run adds the database's folder)", () => {
  it('reads them from [sandbox_workspace_write] over several lines, or a dotted key', () => {
    expect(
      userWritableRoots(
        codexHome(
          'model = "gpt-5"\n[sandbox_workspace_write]\nnetwork_access = false\nwritable_roots = [\n  "/data/cache",\n  \'/opt/x\',\n]\n[other]\nwritable_roots = ["/no"]\n',
        ),
      ),
    ).toEqual(['/data/cache', '/opt/x']);
    expect(userWritableRoots(codexHome('sandbox_workspace_write.writable_roots = ["/a"]\n'))).toEqual(['/a']);
    // another table's key, none at all, no file
    expect(userWritableRoots(codexHome('[profiles.x]\nwritable_roots = ["/no"]\n'))).toEqual([]);
    expect(userWritableRoots(codexHome('model = "gpt-5"\n'))).toEqual([]);
    expect(userWritableRoots({ CODEX_HOME: join(tempDir(), 'none') })).toEqual([]);
  });
});
