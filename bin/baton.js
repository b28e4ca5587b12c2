#!/usr/bin/env node
import module from 'node:module';
import v8 from 'node:v8';

// Node 22.1+ keeps compiled code between runs (a faster start); older versions have no such cache.
module.enableCompileCache?.();
// A short process: each regular expression compiled once, to machine code, instead of interpreted first and compiled
// again at its second use (V8's tier-up). A transcript import runs the decision rules' expressions on every sentence:
// this halves what they cost a hook (bench/hooks.js).
v8.setFlagsFromString('--no-regexp-tier-up');
const argv = process.argv.slice(2);
// `baton hook <Event>` runs on every turn of an agent: it loads only the hook's own entry, not the CLI.
if (argv[0] === 'hook') {
  const { hookMain } = await import('../dist/bin/hook.js');
  process.exitCode = await hookMain(argv.slice(1));
} else {
  const { main } = await import('../dist/bin/cli.js');
  process.exitCode = await main(argv);
}
