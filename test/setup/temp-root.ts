import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary folder of a run lives under one root, deleted at the end: the tests make thousands (repositories,
 * homes, databases, worktrees of killed workers), and a test that fails or a process killed mid-write would
 * otherwise leave its own behind in the system's temporary folder. `TMPDIR` is what `os.tmpdir()` reads in the
 * workers Vitest starts after this and in every process they start (hermetic-env.ts keeps it).
 * The root's name is short (unix sockets made under it have at most 107 bytes of path), and it is open to every user
 * as the system's is (the embedded PostgreSQL runs as the `postgres` user when the tests run as root).
 * V8's compiled code of Baton's bundles (bin/compile-cache.cjs) is kept there too, one cache for the run
 * (`XDG_CACHE_HOME`), as a user has one: the tests give most `baton` processes a home of their own, where each would
 * otherwise compile the bundles anew (test/e2e/hook-compile-cache.test.ts tests the cache under a home).
 */
export default function setup() {
  const root = mkdtempSync(join(tmpdir(), 'bt-'));
  chmodSync(root, 0o1777);
  const before = { TMPDIR: process.env.TMPDIR, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  process.env.TMPDIR = root;
  process.env.XDG_CACHE_HOME = join(root, 'cache');
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
