import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

const loader = fileURLToPath(new URL('../../bin/compile-cache.cjs', import.meta.url));
const sha1 = (text: string | Buffer) => createHash('sha1').update(text).digest();

/** A bundle of two CommonJS files (an entry and its chunk), as rolldown writes the hook's. */
function bundle() {
  const dir = tempDir('baton-bundle-');
  writeFileSync(
    join(dir, 'entry.cjs'),
    "exports.value = require('./chunk.cjs').f(2) + require('node:path').sep;\n",
  );
  writeFileSync(join(dir, 'chunk.cjs'), 'exports.f = (x) => x * 21;\n');
  return dir;
}

/**
 * Loads the bundle's entry in a process of its own (the cache is written when it exits), for `use` when given; what
 * it printed.
 */
function load(dir: string, env: Record<string, string | undefined>, use?: string) {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `console.log(require(${JSON.stringify(loader)}).requireCached(process.argv[1], process.env, process.argv[2]).value)`,
      join(dir, 'entry.cjs'),
      ...(use === undefined ? [] : [use]),
    ],
    { env: hermeticEnv(env), encoding: 'utf8' },
  );
  return { out: r.stdout.trim(), err: r.stderr, code: r.status };
}

/** The cache folder of one bundle, under a cache home. */
function folderOf(cacheHome: string) {
  const base = join(cacheHome, 'agent-baton', 'compile');
  const [only] = readdirSync(base);
  return join(base, only!);
}

describe("the hook's compile cache (Node.js before 22.1)", () => {
  it('keeps the compiled code of each file and uses it while the source is the one it was made from', () => {
    const dir = bundle();
    const cache = tempDir('baton-cache-');
    expect(load(dir, { XDG_CACHE_HOME: cache })).toEqual({ out: '42/', err: '', code: 0 });
    const folder = folderOf(cache);
    expect(readdirSync(folder).sort()).toEqual(['chunk.cjs', 'entry.cjs']);
    const entry = readFileSync(join(folder, 'chunk.cjs'));
    expect(entry.subarray(0, 20)).toEqual(sha1(readFileSync(join(dir, 'chunk.cjs'), 'utf8')));
    expect(entry.length).toBeGreaterThan(100);

    // taken as it is: not written again
    const before = readdirSync(folder).map((f) => statSync(join(folder, f)).ino);
    expect(load(dir, { XDG_CACHE_HOME: cache }).out).toBe('42/');
    expect(readdirSync(folder).map((f) => statSync(join(folder, f)).ino)).toEqual(before);

    // a new build of the same length (which V8's own check would let through) runs its own code, and is kept
    writeFileSync(join(dir, 'chunk.cjs'), 'exports.f = (x) => x * 22;\n');
    expect(load(dir, { XDG_CACHE_HOME: cache }).out).toBe('44/');
    expect(readFileSync(join(folder, 'chunk.cjs')).subarray(0, 20)).toEqual(
      sha1('exports.f = (x) => x * 22;\n'),
    );
    expect(statSync(join(folder, 'entry.cjs')).ino).toBe(before[1]);
  });

  it('writes damaged data again, and drops the files of earlier builds', () => {
    const dir = bundle();
    const cache = tempDir('baton-cache-');
    load(dir, { XDG_CACHE_HOME: cache });
    const folder = folderOf(cache);
    const hash = sha1(readFileSync(join(dir, 'chunk.cjs'), 'utf8'));
    writeFileSync(join(folder, 'chunk.cjs'), Buffer.concat([hash, Buffer.from('not V8 data at all')]));
    writeFileSync(join(folder, 'chunk-OLDBUILD.cjs'), 'left by an earlier build');
    // another process's write under way is left to it; one left by a process that died long ago is dropped
    writeFileSync(join(folder, 'entry.cjs.4242.part'), 'being written');
    writeFileSync(join(folder, 'entry.cjs.4343.part'), 'left by a process killed mid-write');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(join(folder, 'entry.cjs.4343.part'), old, old);
    expect(load(dir, { XDG_CACHE_HOME: cache })).toEqual({ out: '42/', err: '', code: 0 });
    expect(readFileSync(join(folder, 'chunk.cjs')).length).toBeGreaterThan(100);
    expect(readdirSync(folder).sort()).toEqual(['chunk.cjs', 'entry.cjs', 'entry.cjs.4242.part']);
  });

  it('keeps a cache per use, each written by the first process of that use', () => {
    const dir = bundle();
    const cache = tempDir('baton-cache-');
    expect(load(dir, { XDG_CACHE_HOME: cache }, 'hook-SessionStart').out).toBe('42/');
    const base = join(cache, 'agent-baton', 'compile');
    const [install] = readdirSync(base);
    expect(install).toMatch(/^[0-9a-f]{12}-hook-SessionStart$/);
    const install12 = install!.slice(0, 12);
    // another use writes its own: the functions a Stop runs are not those a SessionStart ran
    expect(load(dir, { XDG_CACHE_HOME: cache }, 'hook-Stop').out).toBe('42/');
    expect(load(dir, { XDG_CACHE_HOME: cache }).out).toBe('42/');
    expect(readdirSync(base).sort()).toEqual([
      install12,
      `${install12}-hook-SessionStart`,
      `${install12}-hook-Stop`,
    ]);
    for (const folder of readdirSync(base))
      expect(readdirSync(join(base, folder)).sort()).toEqual(['chunk.cjs', 'entry.cjs']);
    // a use is a word, never a path
    const bad = load(dir, { XDG_CACHE_HOME: cache }, '../elsewhere');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('is not a word');
  });

  it('costs only the compilation when the cache cannot be written, and is off with NODE_DISABLE_COMPILE_CACHE', () => {
    const dir = bundle();
    const notAFolder = join(tempDir('baton-cache-'), 'a-file');
    writeFileSync(notAFolder, '');
    expect(load(dir, { XDG_CACHE_HOME: notAFolder })).toEqual({ out: '42/', err: '', code: 0 });

    const cache = tempDir('baton-cache-');
    expect(load(dir, { XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' }).out).toBe('42/');
    expect(existsSync(join(cache, 'agent-baton'))).toBe(false);
  });

  it.runIf(!('enableCompileCache' in module))('is what `baton hook` loads its code with', async () => {
    const { repo, env, baton } = hookWorkspace({ XDG_CACHE_HOME: undefined });
    const hook = agentHooks(baton, {
      session_id: 's-1',
      cwd: repo,
      transcript_path: join(repo, 'none.jsonl'),
    });
    expect((await hook('SessionStart', { source: 'startup' })).code).toBe(0);
    const folder = folderOf(join(env.HOME, '.cache'));
    expect(folder).toMatch(/-hook-SessionStart$/);
    expect(readdirSync(folder)).toContain('hook.cjs');
    // the next hook runs on the code kept for its event (another event runs other functions of the same chunks)
    const prompt = await hook('UserPromptSubmit', { prompt: 'Add a login page' });
    expect(prompt.code).toBe(0);
    expect(readdirSync(join(folder, '..')).sort()).toEqual([
      basename(folder),
      basename(folder).replace(/SessionStart$/, 'UserPromptSubmit'),
    ]);
    const status = (await baton(['status', '--json'])).json<{ workflow: { issue: { title: string } } }>();
    expect(status.workflow.issue.title).toBe('Add a login page');
  });
});
