import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn, makeRepo, tempDir } from '../../../test/helpers/git-repo.js';
import {
  codexConfigError,
  codexHookKey,
  codexHookStates,
  codexHooksOff,
  codexTrust,
  userWritableRoots,
} from './codex-config.js';

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
    const level = (root: string, codexDir = dir) => codexTrust(root, codexDir)?.level ?? null;
    expect(codexTrust('/work/main', dir)).toEqual({ level: 'trusted', folder: '/work/main' });
    expect(level('/work/main/')).toBe('trusted');
    expect(codexTrust('/work/app', dir)).toEqual({ level: 'untrusted', folder: '/work/app' });
    expect(level('/work/elsewhere')).toBeNull();
    expect(level('/work/main', codexFolder(null))).toBeNull();
    // a trust_level of another table does not count
    expect(
      level('/work/x', codexFolder('[projects."/work/x"]\n[other]\ntrust_level = "trusted"\n')),
    ).toBeNull();
  });

  it("takes a linked worktree's trust from its own entry first, then from its main checkout's (as Codex does)", () => {
    const main = makeRepo();
    const worktree = join(tempDir('baton-wt-'), 'feature');
    gitIn(main, 'worktree', 'add', '-q', worktree);
    const trusted = codexFolder(`[projects."${main}"]\ntrust_level = "trusted"\n`);
    expect(codexTrust(worktree, trusted)).toEqual({ level: 'trusted', folder: main });
    expect(codexTrust(main, trusted)?.level).toBe('trusted');
    const own = codexFolder(
      `[projects."${main}"]\ntrust_level = "trusted"\n[projects."${worktree}"]\ntrust_level = "untrusted"\n`,
    );
    expect(codexTrust(worktree, own)).toEqual({ level: 'untrusted', folder: worktree });
    // another repository's trust does not count
    expect(codexTrust(makeRepo(), trusted)).toBeNull();
  });

  it('finds the entry Codex wrote for the resolved folder when Baton names it through a link', () => {
    const repo = makeRepo();
    const link = join(tempDir('baton-link-'), 'repo');
    symlinkSync(repo, link);
    expect(codexTrust(link, codexFolder(`[projects."${repo}"]\ntrust_level = "trusted"\n`))?.level).toBe(
      'trusted',
    );
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

describe("reading Codex's config.toml", () => {
  it('reads every form of a table as Codex does, and says where and why a file does not parse', () => {
    // `[projects."/w"]` as dotted keys, and as an inline table
    expect(codexTrust('/w', codexFolder('projects."/w".trust_level = "trusted"\n'))?.level).toBe('trusted');
    expect(
      codexTrust('/w', codexFolder('projects = { "/w" = { trust_level = "untrusted" } }\n'))?.level,
    ).toBe('untrusted');
    expect(codexConfigError(codexFolder('model = "gpt-5"\n'))).toBeNull();
    expect(codexConfigError(codexFolder(null))).toBeNull();
    const broken = codexFolder(
      'model = "gpt-5"\n[projects."/w"]\ntrust_level = "trusted"\n[projects."/w"]\n',
    );
    expect(codexConfigError(broken)).toBe(
      'line 4, column 2: trying to redefine an already defined table or value',
    );
    // read as no trust at all (Codex does not start with it)
    expect(codexTrust('/w', broken)).toBeNull();
  });
});

describe("Codex's record of the hooks a person trusted", () => {
  it('reads [hooks.state."<key>"] tables, dotted keys and inline tables, for the hook at that place of that file', () => {
    const dir = tempDir('baton-hooks-');
    const file = join(dir, 'hooks.json');
    writeFileSync(file, '{}');
    const link = join(tempDir('baton-link-'), 'codex');
    symlinkSync(dir, link);
    // each form in a file of its own: one file mixing them all would define `hooks` twice, and Codex refuses it
    const tomls = [
      [
        'model = "gpt-5"',
        `hooks.state."${file}:user_prompt_submit:0:0".trusted_hash = "sha256:2"`,
        `[hooks.state."${file}:session_start:0:0"]`,
        'trusted_hash = "sha256:1"',
        // the path Codex found through a link is the same file
        `[hooks.state.'${join(link, 'hooks.json')}:stop:1:0']`,
        'enabled = false',
        'trusted_hash = "sha256:3"',
        '[projects."/w"]',
        // a trusted_hash of another table is no hook's
        'trusted_hash = "sha256:6"',
      ],
      ['[hooks]', `state."${file}:pre_compact:0:0".enabled = false`],
      [
        '[hooks.state]',
        `"${file}:post_tool_use:0:0" = { trusted_hash = "sha256:4" }`,
        '"not a hook key" = { trusted_hash = "sha256:5" }',
      ],
    ].map((lines) => codexHookStates(codexFolder(lines.join('\n'))));
    const state = (...at: Parameters<(typeof tomls)[0]>) =>
      tomls.map((s) => s(...at)).find((x) => x !== null) ?? null;
    expect(state(file, 'SessionStart', 0, 0)).toEqual({ trusted: true, disabled: false });
    expect(state(file, 'UserPromptSubmit', 0, 0)).toEqual({ trusted: true, disabled: false });
    expect(state(file, 'Stop', 1, 0)).toEqual({ trusted: true, disabled: true });
    expect(state(file, 'PreCompact', 0, 0)).toEqual({ trusted: false, disabled: true });
    expect(state(file, 'PostToolUse', 0, 0)).toEqual({ trusted: true, disabled: false });
    // another place, another file, no record at all
    expect(state(file, 'Stop', 0, 0)).toBeNull();
    expect(state(join(tempDir(), 'hooks.json'), 'SessionStart', 0, 0)).toBeNull();
    expect(codexHookStates(codexFolder(null))(file, 'SessionStart', 0, 0)).toBeNull();
    // a config Codex cannot read records nothing (`baton doctor` says it does not parse)
    const broken = `[hooks.state."${file}:session_start:0:0"]\ntrusted_hash = "sha256:1"\n[hooks.state."${file}:session_start:0:0"]\n`;
    expect(codexHookStates(codexFolder(broken))(file, 'SessionStart', 0, 0)).toBeNull();
    expect(codexHookKey('/r/.codex/hooks.json', 'PostToolUse', 2, 1)).toBe(
      '/r/.codex/hooks.json:post_tool_use:2:1',
    );
  });

  it('says where the config turns every hook off', () => {
    expect(codexHooksOff(codexFolder('[features]\nhooks = false\n'))).toBe('[features] hooks = false');
    expect(codexHooksOff(codexFolder('[features]\ncodex_hooks = false # old name\n'))).toBe(
      '[features] codex_hooks = false',
    );
    expect(codexHooksOff(codexFolder('features.hooks = false\n[x]\n'))).toBe('features.hooks = false');
    expect(codexHooksOff(codexFolder('[features]\nhooks = true\n'))).toBeNull();
    // a `hooks` key of another table is not the feature
    expect(
      codexHooksOff(codexFolder('[profiles.x.features]\nhooks = false\n[mcp]\nhooks = false\n')),
    ).toBeNull();
    expect(codexHooksOff(codexFolder(null))).toBeNull();
  });
});
