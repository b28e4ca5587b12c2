#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json), as are the CLI's and the hook's bundles (dist/bin/cli.cjs, dist/bin/hook.cjs): a command
// starts without Node.js's ES module loader, and keeps V8's compiled code between runs.
const Module = require('node:module');

// Node 22.1+ keeps compiled code between runs (a faster start); for older versions Baton keeps its own.
Module.enableCompileCache?.();
/**
 * A bundle's entry (`cli` or `hook`): with Node.js's compile cache, else Baton's (bin/compile-cache.cjs), whose
 * cache of `use` holds the functions that use runs.
 */
const load = async (name, use) => {
  const entry = require.resolve(`../dist/bin/${name}.cjs`);
  return Module.enableCompileCache
    ? require(entry)
    : require('./compile-cache.cjs').requireCached(entry, process.env, use);
};

async function main(argv) {
  // `baton hook <Event>` runs on every turn of an agent: it loads only the hook's own entry, not the CLI (which
  // answers `baton hook --help`, and `baton hook` typed at a terminal; an agent's `baton hook` takes the event from its
  // payload). Standard input and node:v8 are touched only for a hook: each costs any other command milliseconds to set
  // up.
  const hook =
    argv[0] === 'hook' &&
    !(argv.some((a) => a === '--help' || a === '-h') || (argv.length < 2 && process.stdin.isTTY === true));
  if (hook) {
    const v8 = require('node:v8');
    // A hook lives for one turn: each regular expression of the transcript rules is compiled once, to machine code,
    // rather than to bytecode first and again once V8 finds it used often (the decision rules' first pass over a
    // turn takes half as long).
    v8.setFlagsFromString('--no-regexp-tier-up');
    // ...and without the compiler's optimisations of the matching code, which take about half of that compilation
    // and pay back only on long subjects (a command's output is cut to 4,000 characters): a turn's import costs
    // 20-50 ms less CPU, and a whole 2.6 MB transcript's takes as long as with them
    v8.setFlagsFromString('--no-regexp-optimization');
    // each event keeps its compiled code apart (a Stop runs the transcript import, a SessionStart the context): the
    // code a Stop runs is then compiled once, not on every Stop after a SessionStart wrote the cache
    const event = /^[A-Za-z]+$/.test(argv[1] ?? '') ? argv[1] : '';
    // a hook never fails the agent: an install it cannot load (a rebuild under way, files missing) is said, exit 0
    const loaded = await load('hook', event ? `hook-${event}` : 'hook').catch((e) => e);
    if (!(loaded instanceof Error)) return loaded.hookMain(argv.slice(1));
    const why = `Baton's hook could not load (${loaded.message.split('\n')[0]}): reinstall Baton (or run \`npm run build\` in its folder), then run \`baton doctor\``;
    process.stdout.write(`${JSON.stringify({ systemMessage: why })}\n`);
    process.stderr.write(`baton: ${why}\n`);
    return 0;
  }
  // a reader that went away (`baton list --json | head -c 0`) takes no more output: the command goes on to its end
  // (a run is not cut short by it), its exit code as it would be, with no stack of the broken pipe
  process.stdout.on('error', (e) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });
  const cli = await load('cli');
  return cli.main(argv);
}

// a failure of the CLI's own (a bug) ends the process with its stack, as an unhandled rejection does
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
