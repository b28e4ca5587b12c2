'use strict';
/**
 * Loads Baton's CommonJS bundles (dist/bin/cli.cjs, dist/bin/hook.cjs and their chunks) keeping V8's compiled code
 * between processes, as Node.js 22.1+ does by itself (`module.enableCompileCache`, which bin/baton.js turns on where it
 * exists). A hook is a short process on every turn of an agent, a command one at a terminal, and compiling their code
 * was a large part of each.
 *
 * The cache is the user's: $XDG_CACHE_HOME/agent-baton/compile (else ~/.cache/...), a folder per install (named after
 * the bundle's folder) and use, a file per chunk holding the SHA-1 of the source it was compiled from, then V8's data.
 * Data is given only to the source it was made from (V8 itself checks little more than the length); V8 refuses data
 * of another Node.js version or other flags, and the file is written again. A cache that cannot be read or written
 * only costs the compilation; NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node.js's own.
 *
 * V8's data holds the functions compiled when it was written (the module's body and what the process that wrote it
 * ran); a function it lacks is compiled again by every process that runs it. Processes that run different code of the
 * same chunks (a SessionStart and a Stop both load the service, which the Stop uses to read and import a transcript)
 * therefore keep a cache each, named by their use: the first of each writes what that use runs.
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

const sha1 = (data) => createHash('sha1').update(data).digest();

/** Where this install's compiled code for `use` (a word, or none) is kept, or null when the cache is off. */
function cacheFolder(bundleDir, env, use) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  const base = env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  const install = sha1(bundleDir).toString('hex').slice(0, 12);
  return path.join(base, 'agent-baton', 'compile', use ? `${install}-${use}` : install);
}

/** V8's data for `source` from `file` when it was made from that source. */
function readEntry(file, hash) {
  try {
    const b = fs.readFileSync(file);
    return b.subarray(0, hash.length).equals(hash) ? b.subarray(hash.length) : undefined;
  } catch {
    return undefined;
  }
}

/** A file of the folder that no longer belongs there: an earlier build's, or a write left by a process that died. */
function stale(folder, name, current) {
  if (current.has(name)) return false;
  if (!name.endsWith('.part')) return true;
  // another process may be writing it now (processes share the folder): its own rename follows within a moment
  const mtime = fs.statSync(path.join(folder, name), { throwIfNoEntry: false })?.mtimeMs;
  return mtime !== undefined && Date.now() - mtime > 60_000;
}

/** Writes the compiled code of the scripts that had none (whole, or not at all), then drops earlier builds' files. */
function writeEntries(folder, bundleDir, fresh) {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const { script, file, hash } of fresh) {
      const part = `${file}.${process.pid}.part`;
      fs.writeFileSync(part, Buffer.concat([hash, script.createCachedData()]), { mode: 0o600 });
      fs.renameSync(part, file);
    }
    const current = new Set(fs.readdirSync(bundleDir));
    for (const name of fs.readdirSync(folder))
      if (stale(folder, name, current)) fs.rmSync(path.join(folder, name), { force: true });
  } catch {
    // the next process compiles again: slower, nothing else
  }
}

/**
 * `require(file)` for a CommonJS file whose own chunks sit in its folder (`require('./x.cjs')`); every other
 * `require` is Node.js's, from that file. The code compiled is written to the cache of `use` (letters and dashes: what
 * the process runs, as `hook-Stop`) when the process exits, after the run compiled the functions it used.
 */
function requireCached(file, env = process.env, use = '') {
  if (!/^[A-Za-z-]*$/.test(use))
    throw new Error(`requireCached: the use ${JSON.stringify(use)} is not a word`);
  const bundleDir = path.dirname(file);
  const folder = cacheFolder(bundleDir, env, use);
  const modules = new Map();
  const fresh = [];
  const load = (filename) => {
    const known = modules.get(filename);
    if (known) return known.exports;
    // hashed as read: hashing the decoded text would encode it again (the same bytes, so the same hash)
    const bytes = fs.readFileSync(filename);
    const hash = sha1(bytes);
    const source = bytes.toString('utf8');
    const entry = folder && path.join(folder, path.basename(filename));
    const cachedData = entry ? readEntry(entry, hash) : undefined;
    const script = new vm.Script(Module.wrap(source), { filename, cachedData });
    if (entry && (!cachedData || script.cachedDataRejected)) fresh.push({ script, file: entry, hash });
    const module = { id: filename, filename, exports: {}, loaded: false };
    modules.set(filename, module);
    const outside = Module.createRequire(filename);
    const own = (id) =>
      id.startsWith('./') && id.endsWith('.cjs') ? load(path.join(bundleDir, id)) : outside(id);
    own.resolve = outside.resolve;
    own.cache = outside.cache;
    script.runInThisContext()(module.exports, own, module, filename, bundleDir);
    module.loaded = true;
    return module.exports;
  };
  if (folder) process.once('exit', () => fresh.length && writeEntries(folder, bundleDir, fresh));
  return load(file);
}

module.exports = { requireCached };
